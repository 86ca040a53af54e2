import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from '@temporalio/worker';
import { describe, expect, it, inject } from 'vitest';
import { HISTORIES_DIR } from '../helpers/histories.js';

// Every workflow has a committed history; replaying it against today's code catches a change
// that would break runs already in flight. A history recorded before a patch stays, named after
// the patch, so the old path keeps replaying.
const WORKFLOWS = [
  'automation-dispatch',
  'campaign-send.cancelled-while-scheduled',
  'campaign-send.cancelled-while-sending',
  'campaign-send.continued-as-new',
  'campaign-send.sent',
  'contact-job',
  'dispatch-queued-emails',
  'dispatch-queued-emails.before-automation-patch',
  'dispatch-queued-emails.before-ensure-patch',
  'email-delivery',
  'execution.cancelled-in-delay',
  'execution.condition-no-exit',
  'execution.continued-as-new',
  'execution.email-wait-event-condition-yes',
  'execution.opening-delay',
  'execution.wait-timeout',
  'execution.webhook',
  'execution.webhook.before-remote-step-patch',
  'execution.webhook-failed',
  'execution.webhook-failed.before-remote-step-patch',
  'fold-event-counts',
  'recheck-domains',
  'recompute-segments',
  'report-billing-usage',
  'segment-compute',
  'send-email',
  'send-email.gave-up',
  'send-system-email',
];

describe('replay of committed histories', () => {
  it('has a history for every workflow', async () => {
    const files = (await readdir(HISTORIES_DIR)).filter((f) => f.endsWith('.json'));
    expect(files.map((f) => f.replace(/\.json$/, '')).sort()).toEqual([...WORKFLOWS].sort());
  });

  for (const name of WORKFLOWS) {
    it(`replays ${name} deterministically`, async () => {
      const history = JSON.parse(await readFile(path.join(HISTORIES_DIR, `${name}.json`), 'utf8'));
      await Worker.runReplayHistory(
        { workflowBundle: { codePath: inject('stack').workflowBundlePath } },
        history,
        name,
      );
    });
  }
});
