import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  startTemporalDevServer,
  type TemporalDevServerHandle,
} from '../../runtime/embedded/temporal-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { keepHistory } from '../helpers/histories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { DnsServer } from '../helpers/dns-server.js';
import type { TestStack } from '../helpers/stack.js';
import {
  buildWorkflow,
  firstExecutionWaitingAt,
  ended,
  track,
  waitForExecution,
  waitForExecutions,
} from '../helpers/workflows.js';
import { eventually } from '../helpers/eventually.js';

// This file runs its own Temporal dev server (its state in a file of its own), so that it can
// stop and start it without disturbing the other test files.
let temporalDir: string;
let temporal: TemporalDevServerHandle;
let port: number;
let stack: TestStack;
let dns: DnsServer;
let stop: () => Promise<void>;

const log = (line: string): void => console.log(`[automation-crash] ${line}`);
const startTemporal = async (): Promise<TemporalDevServerHandle> =>
  startTemporalDevServer({
    cli: inject('stack').temporalCli,
    dataDir: temporalDir,
    port,
    headless: true,
    log,
  });

beforeAll(async () => {
  temporalDir = await mkdtemp(path.join(tmpdir(), 'mailwright-crash-temporal-'));
  temporal = await startTemporalDevServer({
    cli: inject('stack').temporalCli,
    dataDir: temporalDir,
    headless: true,
    log,
  });
  port = Number(temporal.address.split(':')[1]);
  ({ stack, dns, stop } = await startSendingStack({
    TEMPORAL_ADDRESS: temporal.address,
    // Short dispatch lane runs, so a reconfigured loop hands over within seconds.
    AUTOMATION_DISPATCH_LANE_SECONDS: '2',
  }));
});
afterAll(async () => {
  await stop?.();
  await temporal?.stop();
  await rm(temporalDir, { recursive: true, force: true });
});

describe('a worker killed during a DELAY', () => {
  it('finishes the execution after a restart without sending its email again', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('crash'));
    const template = await stack.api.post('/templates', {
      ...sk,
      body: { name: 'T', subject: 'Hello', body: '<p>Hi</p>', from: `hi@${domain}` },
    });
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: {
        send: { type: 'SEND_EMAIL', config: { templateId: template.body.id } },
        pause: { type: 'DELAY', config: { amount: 3, unit: 'seconds' } },
        after: { type: 'UPDATE_CONTACT', config: { data: { survived: true } } },
      },
      links: [
        ['send', 'pause'],
        ['pause', 'after'],
      ],
    });
    const email = uniqueEmail('killed').toLowerCase();
    await track(stack.api, sk, email, 'signup');
    const execution = await firstExecutionWaitingAt(stack.api, sk, workflow, 'pause');
    await stack.smtp.waitFor((m) => m.to.includes(email));

    // The restarted worker also runs more dispatch lanes: the dispatch loop takes the new
    // settings by continuing as new, and that run's history becomes its replay fixture.
    await stack.stopWorker('SIGKILL');
    stack.env.AUTOMATION_DISPATCH_LANES = '3';
    await stack.startWorker();
    const done = await waitForExecution(stack.api, sk, workflow.id, execution!.id, ended, {
      timeoutMs: 60_000,
    });
    expect(done.status).toBe('COMPLETED');
    expect(done.steps.map((s) => [s.type, s.status])).toEqual([
      ['SEND_EMAIL', 'COMPLETED'],
      ['DELAY', 'COMPLETED'],
      ['UPDATE_CONTACT', 'COMPLETED'],
    ]);
    expect(stack.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);

    const connection = await Connection.connect({ address: temporal.address });
    try {
      const workflowId = `automation-dispatch-${stack.env.TEMPORAL_TASK_QUEUE}`;
      const handedOver = await eventually(
        async () => {
          let runId: string | undefined;
          for await (const run of new TemporalClient({ connection }).workflow.list({
            query: `WorkflowId = '${workflowId}' AND ExecutionStatus = 'ContinuedAsNew'`,
          }))
            runId = run.runId;
          return runId;
        },
        { what: 'the dispatch loop to continue as new', timeoutMs: 60_000, intervalMs: 200 },
      );
      await keepHistory('automation-dispatch', workflowId, handedOver, temporal.address);
    } finally {
      await connection.close();
    }
  });
});

describe('Temporal down while events arrive', () => {
  it('accepts them (200) and, once it is back, starts each execution exactly once', async () => {
    const { sk } = await projectFixture(stack.api);
    const workflow = await buildWorkflow(stack.api, sk, {
      steps: { note: { type: 'UPDATE_CONTACT', config: { data: { started: true } } } },
    });
    await temporal.stop();
    const emails = Array.from({ length: 20 }, (_, i) => uniqueEmail(`down${i}`).toLowerCase());
    for (const email of emails) await track(stack.api, sk, email, 'signup');
    temporal = await startTemporal();

    const executions = await waitForExecutions(stack.api, sk, workflow.id, {
      count: 20,
      timeoutMs: 90_000,
    });
    for (const x of executions) {
      const done = await waitForExecution(stack.api, sk, workflow.id, x.id, ended, {
        timeoutMs: 90_000,
      });
      expect(done.status).toBe('COMPLETED');
    }
    expect(new Set(executions.map((x) => x.contactId)).size).toBe(20);

    // One run per execution in Temporal: no start was repeated.
    const connection = await Connection.connect({ address: temporal.address });
    try {
      const client = new TemporalClient({ connection });
      const ids: string[] = [];
      for await (const run of client.workflow.list({ query: `WorkflowType = 'execution'` })) {
        ids.push(run.workflowId);
      }
      const ours = ids.filter((id) => executions.some((x) => id === `execution-${x.id}`));
      expect(ours).toHaveLength(20);
      expect(new Set(ours).size).toBe(20);
    } finally {
      await connection.close();
    }
  });
});
