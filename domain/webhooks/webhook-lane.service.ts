import pLimit from 'p-limit';
import {
  claimWebhookDeliveries,
  clearDisabledEndpointNotices,
  findDisabledEndpointNotices,
  recordWebhookAttempts,
  type ClaimedDeliveryRow,
  type DeliveryAttempt,
} from '../../db/sql/webhook-deliveries.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { decryptSecret } from '../shared/encryption.js';
import type { QueueWakeups, WebhookSender, WorkflowEngine } from '../shared/ports.js';
import { storableText } from '../shared/storable-text.pure.js';
import { deliveryDeadline, nextAttempt, type WebhookRetrySchedule } from './retry-schedule.pure.js';
import { signedHeaders } from './webhook-signing.js';

/** What a webhook lane did in one run. */
export interface WebhookLaneReport {
  attempted: number;
  succeeded: number;
  /** Attempts that failed (tried again later, or FAILED for good). */
  failed: number;
  /** Endpoints disabled for failing too long. */
  disabled: number;
}

/** What delivering needs: where the rows are, how to send, how long to keep trying. */
export interface WebhookDeliveryDeps {
  sql: Sql;
  send: WebhookSender;
  engine: Pick<WorkflowEngine, 'startSystemEmail'>;
  encryptionKey: string;
  schedule: WebhookRetrySchedule;
}

const messageOf = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** Decrypts each stored secret once per batch (a batch holds many deliveries per endpoint). */
function secretReader(encryptionKey: string): (stored: string) => string {
  const plain = new Map<string, string>();
  return (stored) => {
    let secret = plain.get(stored);
    if (secret === undefined) {
      secret = decryptSecret(stored, encryptionKey);
      plain.set(stored, secret);
    }
    return secret;
  };
}

/** One signed POST of a claimed delivery, and what became of it. */
async function attempt(
  { send, schedule }: WebhookDeliveryDeps,
  row: ClaimedDeliveryRow,
  readSecret: (stored: string) => string,
): Promise<DeliveryAttempt> {
  const body = JSON.stringify(row.payload);
  let outcome: Pick<DeliveryAttempt, 'ok' | 'responseStatus' | 'responseBody' | 'error'>;
  const started = performance.now();
  try {
    const secrets = [row.secret, ...(row.previous_secret ? [row.previous_secret] : [])].map(
      readSecret,
    );
    const response = await send({
      url: row.url,
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Mailwright-Webhooks/1',
        ...signedHeaders({ id: row.id, body, secrets, at: new Date() }),
      },
      body,
    });
    const ok = response.status >= 200 && response.status < 300;
    outcome = {
      ok,
      responseStatus: response.status,
      responseBody: storableText(response.body),
      error: ok ? null : `The endpoint answered ${response.status}`,
    };
  } catch (error) {
    outcome = { ok: false, responseStatus: null, responseBody: null, error: messageOf(error) };
  }
  const latencyMs = Math.round(performance.now() - started);
  if (outcome.ok)
    return { id: row.id, status: 'SUCCEEDED', retryInSeconds: null, latencyMs, ...outcome };
  const next = nextAttempt({
    schedule,
    attempts: row.attempts + 1,
    now: new Date(),
    deadline: deliveryDeadline({
      schedule,
      createdAt: new Date(row.created_at),
      retryUntil: row.retry_until ? new Date(row.retry_until) : null,
    }),
  });
  return next
    ? { id: row.id, status: 'PENDING', retryInSeconds: next.inSeconds, latencyMs, ...outcome }
    : { id: row.id, status: 'FAILED', retryInSeconds: null, latencyMs, ...outcome };
}

/**
 * Emails the owners of the endpoints this queue disabled, once per disabling: one durable system
 * email per endpoint and owner (its workflow id names both and the moment), then the notice is
 * marked sent. A lane that dies in between starts the same emails again, which start nothing.
 */
export async function mailDisabledEndpointNotices({
  sql,
  engine,
  queue,
}: Pick<WebhookDeliveryDeps, 'sql' | 'engine'> & { queue: string }): Promise<number> {
  const notices = await findDisabledEndpointNotices(sql, { queue });
  let mailed = 0;
  for (const notice of notices) {
    for (const userId of notice.owner_ids) {
      await engine.startSystemEmail({
        requestId: `webhook-disabled-${notice.id}-${new Date(notice.disabled_at).getTime()}-${userId}`,
        kind: 'WEBHOOK_ENDPOINT_DISABLED',
        userId,
        projectId: notice.project_id,
        webhook: {
          url: notice.url,
          failingSince: new Date(notice.failing_since ?? notice.disabled_at).toISOString(),
        },
      });
      mailed += 1;
    }
  }
  await clearDisabledEndpointNotices(sql, { endpointIds: notices.map((n) => n.id) });
  return mailed;
}

/**
 * One webhook lane: until `runForMs` passes or `signal` aborts, claims the queue's due
 * deliveries in batches, sends each signed (`concurrency` at a time, through the outbound address
 * checks of `send`), and records the batch's outcomes in one transaction. With nothing due it
 * sleeps until a wake-up (`wakeups`: the API queued a test or a retry; `local`: the dispatcher
 * queued deliveries) or `idlePollMs`. A delivery is at least once: a lane that dies after sending
 * and before recording leaves it to be sent again when its lease ends (same `webhook-id`).
 */
export async function runWebhookLane({
  queue,
  wakeups,
  local,
  runForMs,
  signal,
  batchSize = 500,
  concurrency = 32,
  leaseSeconds = 120,
  idlePollMs = 1000,
  onProgress = () => undefined,
  ...deps
}: WebhookDeliveryDeps & {
  queue: string;
  wakeups: QueueWakeups;
  local: QueueWakeups;
  runForMs: number;
  signal: AbortSignal;
  batchSize?: number;
  concurrency?: number;
  leaseSeconds?: number;
  idlePollMs?: number;
  onProgress?: (report: WebhookLaneReport) => void;
}): Promise<WebhookLaneReport> {
  const report: WebhookLaneReport = { attempted: 0, succeeded: 0, failed: 0, disabled: 0 };
  const limit = pLimit(concurrency);
  const until = Date.now() + runForMs;
  // Notices may be owed by a lane of this queue that died after disabling an endpoint; one that
  // Temporal cannot take now stays owed, and is tried again on the next round.
  let noticesOwed = true;
  const mailNotices = async (): Promise<void> => {
    noticesOwed = await mailDisabledEndpointNotices({ ...deps, queue }).then(
      () => false,
      () => true,
    );
  };
  // A batch's outcomes are recorded while the next batch is claimed and sent (one record at a
  // time; its failure ends the lane like any other).
  let recording: Promise<void> = Promise.resolve();
  const record = async (attempts: DeliveryAttempt[]): Promise<void> => {
    const disabled = await recordWebhookAttempts(deps.sql, {
      attempts,
      disableAfterSeconds: deps.schedule.disableAfterSeconds,
      queue,
    });
    report.attempted += attempts.length;
    report.succeeded += attempts.filter((a) => a.ok).length;
    report.failed += attempts.filter((a) => !a.ok).length;
    if (disabled.length > 0) {
      report.disabled += disabled.length;
      await mailNotices();
    }
    onProgress(report);
  };
  try {
    while (!signal.aborted && Date.now() < until) {
      if (noticesOwed) await mailNotices();
      const seen = wakeups.generation();
      const seenLocal = local.generation();
      const claimed = await claimWebhookDeliveries(deps.sql, {
        queue,
        limit: batchSize,
        leaseSeconds,
      });
      if (claimed.length > 0) {
        const readSecret = secretReader(deps.encryptionKey);
        const attempts = await Promise.all(
          claimed.map((row) => limit(() => attempt(deps, row, readSecret))),
        );
        await recording;
        recording = record(attempts);
        // Unheard until awaited; a failure is thrown there.
        recording.catch(() => undefined);
      }
      if (claimed.length < batchSize) {
        await recording;
        const waitMs = Math.min(idlePollMs, until - Date.now());
        await Promise.race([
          wakeups.waitForChange(seen, waitMs, signal),
          local.waitForChange(seenLocal, waitMs, signal),
        ]);
      }
    }
  } finally {
    await recording;
  }
  return report;
}
