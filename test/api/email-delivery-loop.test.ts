import { Client, Connection, defaultPayloadConverter } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import type { EmailDeliverySettings } from '../../domain/shared/ports.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { uniqueEmail } from '../helpers/factories.js';
import { keepHistory } from '../helpers/histories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';
import { eventually } from '../helpers/eventually.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
let connection: Connection;
let client: Client;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack({
    EMAIL_DELIVERY_LANES: '1',
    // Short lane runs, so the loop's history shows runs ending and the next one starting.
    EMAIL_DELIVERY_LANE_SECONDS: '1',
  }));
  connection = await Connection.connect({ address: inject('stack').temporalAddress });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection?.close();
  await stop?.();
});

async function settingsOfRun(workflowId: string, runId?: string): Promise<EmailDeliverySettings> {
  const history = await client.workflow.getHandle(workflowId, runId).fetchHistory();
  const payload =
    history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
  return defaultPayloadConverter.fromPayload(payload as never);
}

describe('the email-delivery loop', () => {
  it('takes new settings from a restarted worker by continuing as new, and keeps delivering', async () => {
    const queue = stack.env.TEMPORAL_TASK_QUEUE as string;
    const workflowId = `email-delivery-${queue}`;
    expect(await settingsOfRun(workflowId)).toEqual({ queue, lanes: 1, laneSeconds: 1 });

    // An operator raises the lanes and restarts the worker.
    await stack.stopWorker('SIGTERM');
    stack.env.EMAIL_DELIVERY_LANES = '3';
    await stack.startWorker();
    await eventually(async () => (await settingsOfRun(workflowId)).lanes === 3, {
      what: 'the loop to run with 3 lanes',
      intervalMs: 200,
    });
    const current = await client.workflow.getHandle(workflowId).describe();
    expect(await settingsOfRun(workflowId)).toEqual({ queue, lanes: 3, laneSeconds: 1 });
    expect(current.status.name).toBe('RUNNING');

    // The run that handed over ended by continuing as new; its whole history is the fixture.
    let handedOver: string | undefined;
    for await (const run of client.workflow.list({
      query: `WorkflowId = '${workflowId}' AND ExecutionStatus = 'ContinuedAsNew'`,
    }))
      handedOver = run.runId;
    expect(handedOver).toBeDefined();
    await keepHistory('email-delivery', workflowId, handedOver);

    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('loop'));
    const to = uniqueEmail('after-reconfigure');
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, subject: 'Still here', body: '<p>b</p>', from: `a@${domain}` },
    });
    expect(res.status, res.text).toBe(200);
    await stack.smtp.waitFor((m) => m.to.includes(to));
  });
});
