import type { KeyObject } from 'node:crypto';
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
import type { LaneRun, QueueWakeups, WebhookSender, WorkflowEngine } from '../shared/ports.js';
import { storableText } from '../shared/storable-text.pure.js';
import { deliveryDeadline, nextAttempt, type WebhookRetrySchedule } from './retry-schedule.pure.js';
import { createRecordBatcher } from './record-batcher.js';
import { deliveryHeaders, signingKey } from './webhook-signing.js';

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

/**
 * The HMAC keys of stored secrets, each decrypted and decoded once per lane run (a rotation
 * stores a new secret, so a stored value always stands for the same key).
 */
function signingKeys(encryptionKey: string): (stored: string) => KeyObject {
  const keys = new Map<string, KeyObject>();
  return (stored) => {
    let key = keys.get(stored);
    if (key === undefined) {
      if (keys.size > 1000) keys.clear();
      key = signingKey(decryptSecret(stored, encryptionKey));
      keys.set(stored, key);
    }
    return key;
  };
}

/** One signed POST of a claimed delivery, and what became of it. */
async function attempt(
  { send, schedule }: WebhookDeliveryDeps,
  row: ClaimedDeliveryRow,
  keyOf: (stored: string) => KeyObject,
): Promise<DeliveryAttempt> {
  const body = row.body;
  let outcome: Pick<DeliveryAttempt, 'ok' | 'responseStatus' | 'responseBody' | 'error'>;
  const started = performance.now();
  try {
    const keys = row.previous_secret
      ? [keyOf(row.secret), keyOf(row.previous_secret)]
      : [keyOf(row.secret)];
    const response = await send({
      url: row.url,
      method: 'POST',
      headers: deliveryHeaders({ id: row.id, body, keys, at: new Date() }),
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

/** A claimed delivery waiting for a sender, and when it was claimed (ms since the epoch). */
interface Claimed {
  row: ClaimedDeliveryRow;
  claimedAt: number;
}

/** A claimed delivery not started this long before its lease ends is left to the next claim. */
const LEASE_MARGIN_MS = 5_000;

/** How long a lane's claim holds its deliveries: one sent and not recorded waits this long. */
export const WEBHOOK_LEASE_SECONDS = 120;

/**
 * One webhook lane: until `runForMs` passes or `signal` aborts, claims the queue's due
 * deliveries in batches of `batchSize` and sends each signed (`concurrency` at a time, through
 * the outbound address checks of `send`), as a stream: the next batch is claimed while the last
 * half of the one before is still waiting to be sent, so the senders never wait for a claim, and
 * the outcomes are recorded in batches too (`batchSize`, or every `recordEveryMs`, one record at
 * a time, each one transaction). With nothing due it sleeps until a wake-up (`wakeups`: the API
 * queued a test or a retry; `local`: the dispatcher queued deliveries) or `idlePollMs`. A
 * delivery is at least once: a lane that dies after sending and before recording leaves it to be
 * sent again when its lease ends (same `webhook-id`); one not begun before its lease nearly ends
 * is not sent by this lane (another may have claimed it).
 */
export async function runWebhookLane({
  queue,
  wakeups,
  local,
  runForMs,
  signal,
  onProgress = () => undefined,
  batchSize = 500,
  concurrency = 32,
  leaseSeconds = WEBHOOK_LEASE_SECONDS,
  idlePollMs = 1000,
  recordEveryMs = 200,
  ...deps
}: WebhookDeliveryDeps &
  LaneRun & {
    local: QueueWakeups;
    batchSize?: number;
    concurrency?: number;
    recordEveryMs?: number;
    onProgress?: (report: WebhookLaneReport) => void;
  }): Promise<WebhookLaneReport> {
  const report: WebhookLaneReport = { attempted: 0, succeeded: 0, failed: 0, disabled: 0 };
  const until = Date.now() + runForMs;
  const keyOf = signingKeys(deps.encryptionKey);
  // Notices may be owed by a lane of this queue that died after disabling an endpoint; one that
  // Temporal cannot take now stays owed, and is tried again on the next round.
  let noticesOwed = true;
  const mailNotices = async (): Promise<void> => {
    noticesOwed = await mailDisabledEndpointNotices({ ...deps, queue }).then(
      () => false,
      () => true,
    );
  };
  const recorder = createRecordBatcher<DeliveryAttempt>({
    batchSize,
    maxWaitMs: recordEveryMs,
    write: async (attempts) => {
      const disabled = await recordWebhookAttempts(deps.sql, {
        attempts,
        disableAfterSeconds: deps.schedule.disableAfterSeconds,
        queue,
      });
      report.attempted += attempts.length;
      for (const a of attempts) {
        if (a.ok) report.succeeded += 1;
        else report.failed += 1;
      }
      if (disabled.length > 0) {
        report.disabled += disabled.length;
        await mailNotices();
      }
      onProgress(report);
    },
  });

  // Claimed deliveries not begun yet (oldest first), and how many are being sent.
  const waiting: Claimed[] = [];
  let sending = 0;
  let broken: { error: unknown } | undefined;
  // Resolved when `waiting` is down to half a batch (time to claim) or all is sent (`idle`).
  let onRoom: (() => void) | undefined;
  let onIdle: (() => void) | undefined;
  const lowWater = Math.floor(batchSize / 2);

  const pump = (): void => {
    while (sending < concurrency && waiting.length > 0) {
      const { row, claimedAt } = waiting.shift() as Claimed;
      if (Date.now() > claimedAt + leaseSeconds * 1000 - LEASE_MARGIN_MS) continue;
      sending += 1;
      attempt(deps, row, keyOf).then(
        (outcome) => {
          sending -= 1;
          recorder.add(outcome);
          pump();
        },
        (error: unknown) => {
          sending -= 1;
          broken ??= { error };
          pump();
        },
      );
    }
    if (onRoom && waiting.length <= lowWater) {
      const room = onRoom;
      onRoom = undefined;
      room();
    }
    if (sending === 0 && waiting.length === 0) {
      recorder.flush();
      const idle = onIdle;
      onIdle = undefined;
      idle?.();
    }
  };
  const room = (): Promise<void> =>
    waiting.length <= lowWater ? Promise.resolve() : new Promise((r) => (onRoom = r));
  const idle = (): Promise<void> =>
    sending === 0 && waiting.length === 0 ? Promise.resolve() : new Promise((r) => (onIdle = r));

  try {
    while (!signal.aborted && Date.now() < until) {
      if (broken) throw broken.error;
      recorder.check();
      if (noticesOwed) await mailNotices();
      await room();
      const seen = wakeups.generation();
      const seenLocal = local.generation();
      const claimed = await claimWebhookDeliveries(deps.sql, {
        queue,
        limit: batchSize,
        leaseSeconds,
      });
      const claimedAt = Date.now();
      for (const row of claimed) waiting.push({ row, claimedAt });
      pump();
      if (claimed.length < batchSize) {
        const waitMs = Math.min(idlePollMs, until - Date.now());
        await Promise.race([
          wakeups.waitForChange(seen, waitMs, signal),
          local.waitForChange(seenLocal, waitMs, signal),
        ]);
      }
    }
  } finally {
    // What was claimed is sent and recorded before the lane ends (or fails).
    await idle();
    await recorder.drain();
  }
  if (broken) throw broken.error;
  return report;
}
