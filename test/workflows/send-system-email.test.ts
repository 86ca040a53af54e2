import { EMAIL_QUEUED_CHANNEL } from '../../db/sql/wakeups.sql.js';
import { randomUUID } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import pLimit from 'p-limit';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { User } from '../../db/entities/index.js';
import { openOrm, type Orm } from '../../db/orm.js';
import { createSql, createSqlPool } from '../../db/sql/sql.js';
import { createDnsResolver } from '../../runtime/dns-resolver.js';
import { createLogger } from '../../runtime/logger.js';
import { startPgQueueWakeups } from '../../runtime/pg-queue-wakeups.js';
import { createWebhookSender } from '../../runtime/webhook-sender.js';
import { createSmtpMailer } from '../../runtime/smtp/smtp-mailer.js';
import { createActivities } from '../../temporal/activities/index.js';
import { DEFAULT_WEBHOOK_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedule.pure.js';
import { TemporalWorkflowEngine } from '../../temporal/client.js';
import { PROJECT_ID } from '../../temporal/shared/search-attributes.js';
import { systemEmailWorkflowId } from '../../temporal/shared/workflow-ids.js';
import { keepHistory } from '../helpers/histories.js';
import { startSmtpCapture, type SmtpCapture } from '../helpers/smtp-capture.js';

let orm: Orm;
let smtp: SmtpCapture;
let connection: Connection;
let client: Client;
beforeAll(async () => {
  const stack = inject('stack');
  orm = await openOrm({ url: stack.databaseUrl, poolMax: 2 });
  smtp = await startSmtpCapture();
  connection = await Connection.connect({ address: stack.temporalAddress });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection?.close();
  await smtp?.stop();
  await orm?.close();
});

async function runWorker<T>(
  taskQueue: string,
  smtpUrl: string,
  work: () => Promise<T>,
): Promise<T> {
  const stack = inject('stack');
  const native = await NativeConnection.connect({ address: stack.temporalAddress });
  const mailer = createSmtpMailer({ url: smtpUrl });
  const pool = createSqlPool({ url: stack.databaseUrl, max: 2 });
  const wakeups = await startPgQueueWakeups({
    channel: EMAIL_QUEUED_CHANNEL,
    url: stack.databaseUrl,
    queue: taskQueue,
    logger: createLogger({ level: 'silent', name: 'test' }),
  });
  try {
    const worker = await Worker.create({
      connection: native,
      taskQueue,
      workflowBundle: { codePath: stack.workflowBundlePath },
      activities: createActivities({
        orm,
        sql: createSql(pool),
        deliverySql: createSql(pool),
        mailer,
        publicUrl: 'http://mail.test',
        systemEmailFrom: 'no-reply@mail.test',
        importBatchSize: 500,
        dns: createDnsResolver({ servers: ['127.0.0.1:9'], timeoutMs: 200 }),
        spfInclude: '_spf.mail.test',
        encryptionKey: 'test-key',
        engine: TemporalWorkflowEngine.create({
          address: stack.temporalAddress,
          namespace: 'default',
          taskQueue,
          tls: false,
        }),
        wakeups,
        deliverySlots: pLimit(1),
        emailDelivery: { queue: taskQueue, lanes: 1, laneSeconds: 60 },
        sendRatePerSecond: 50,
        payments: undefined,
        campaignWatchSeconds: 600,
        segmentComputeBatchSize: 1000,
        campaignBatchSize: 1000,
        emailNotifier: { queued: () => undefined },
        dispatchWakeups: wakeups,
        webhookWakeups: wakeups,
        automationDispatch: { queue: taskQueue, lanes: 1, laneSeconds: 60 },
        sendWebhook: createWebhookSender({
          dns: createDnsResolver({ servers: ['127.0.0.1:9'], timeoutMs: 200 }),
          allowPrivate: false,
        }),
        sendEventWebhook: createWebhookSender({
          dns: createDnsResolver({ servers: ['127.0.0.1:9'], timeoutMs: 200 }),
          allowPrivate: false,
        }),
        webhookRetry: DEFAULT_WEBHOOK_RETRY_SCHEDULE,
        webhookPollMs: 1000,
      }),
    });
    return await worker.runUntil(work);
  } finally {
    mailer.close();
    await wakeups.close();
    await pool.end();
    await native.close();
  }
}

async function newUser(): Promise<User> {
  const em = orm.em.fork();
  const user = em.create(User, {
    email: `wf-${randomUUID()}@example.com`,
    passwordHash: 'x',
    name: null,
  });
  await em.flush();
  return user;
}

describe('send-system-email workflow', () => {
  it('delivers the verification email once, tagged with its project, even when started twice', async () => {
    const user = await newUser();
    const taskQueue = `wf-${randomUUID()}`;
    const requestId = randomUUID();
    const projectId = randomUUID();
    const engine = TemporalWorkflowEngine.create({
      address: inject('stack').temporalAddress,
      namespace: 'default',
      taskQueue,
      tls: false,
    });
    const request = { requestId, kind: 'VERIFY_EMAIL' as const, userId: user.id, projectId };
    const handle = client.workflow.getHandle(systemEmailWorkflowId(requestId));
    await runWorker(taskQueue, smtp.url, async () => {
      await engine.startSystemEmail(request);
      await handle.result();
      // The same request again, after the run finished: a no-op, not a second email.
      await engine.startSystemEmail(request);
    });
    await engine.close();
    const mail = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(smtp.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
    expect(mail.parsed.subject).toBe('Verify your email address');
    expect(mail.parsed.text).toMatch(
      /http:\/\/mail\.test\/auth\/verify-email\?token=[A-Za-z0-9_-]{43}/,
    );
    expect(mail.from).toBe('no-reply@mail.test');

    const description = await handle.describe();
    expect(description.typedSearchAttributes.get(PROJECT_ID)).toBe(projectId);
    await keepHistory('send-system-email', handle.workflowId);
  });

  it('retries while the SMTP server answers 451 and delivers exactly once', async () => {
    const user = await newUser();
    const flaky = await startSmtpCapture();
    let refusals = 0;
    flaky.setResponder(() => {
      if (refusals < 2) {
        refusals += 1;
        throw Object.assign(new Error('Try again later'), { responseCode: 451 });
      }
    });
    try {
      const taskQueue = `wf-${randomUUID()}`;
      const requestId = randomUUID();
      await runWorker(taskQueue, flaky.url, async () => {
        const started = await client.workflow.start('sendSystemEmail', {
          taskQueue,
          workflowId: systemEmailWorkflowId(requestId),
          args: [{ requestId, kind: 'RESET_PASSWORD', userId: user.id }],
        });
        await started.result();
      });
      expect(refusals).toBe(2);
      expect(flaky.messages.filter((m) => m.to.includes(user.email))).toHaveLength(1);
      // Each attempt retired the previous token: exactly one reset token is still usable.
      const [{ n }] = (await orm.em
        .fork()
        .getConnection()
        .execute(
          'SELECT count(*)::int AS n FROM auth_tokens WHERE user_id = ? AND used_at IS NULL',
          [user.id],
        )) as [{ n: number }];
      expect(n).toBe(1);
    } finally {
      await flaky.stop();
    }
  });
});
