import {
  claimQueuedEmails,
  holdQueuedEmail,
  markEmailRetrying,
  releaseEmailLeases,
  renewEmailLeases,
  type DeliverableEmail,
} from '../../db/sql/email-delivery.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import {
  MailDeliveryError,
  type Mailer,
  type QueueWakeups,
  type WorkflowEngine,
} from '../shared/ports.js';
import { composeMessage, failEmail, sendAndRecord } from './deliver.service.js';

export interface LaneReport {
  sent: number;
  failed: number;
  /** Handed to their own send-email workflow after a temporary failure. */
  retrying: number;
}

/** Runs `task` when one of the process's delivery slots (SMTP connections) is free. */
export type DeliverySlots = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * Hands an email whose attempt failed temporarily to its own `send-email` workflow, which
 * retries with backoff for a day. When Temporal cannot take it, the email stays queued, claimed
 * by nobody until the lease ends, and a lane tries again then.
 */
async function handOff({
  sql,
  engine,
  row,
  error,
  leaseSeconds,
}: {
  sql: Sql;
  engine: WorkflowEngine;
  row: DeliverableEmail;
  error: string;
  leaseSeconds: number;
}): Promise<boolean> {
  try {
    await engine.startSendEmail({ emailId: row.id, projectId: row.project_id });
  } catch {
    await holdQueuedEmail(sql, {
      emailId: row.id,
      seconds: leaseSeconds,
      error: error.slice(0, 1000),
    });
    return false;
  }
  await markEmailRetrying(sql, { emailId: row.id, error: error.slice(0, 1000) });
  return true;
}

/**
 * One delivery lane: until `runForMs` passes or `signal` aborts, claims batches of queued
 * emails (no project beyond its send throttle) and delivers each through a free delivery slot,
 * committing SENT the moment the server accepts. With nothing to take it sleeps until the queue's
 * wake-up, a throttled project's next turn or `idlePollMs`. Leases of
 * emails in hand are renewed while the lane lives; a lane that dies leaves them to expire, or to
 * its retried attempt, which carries the same token. Emails it claimed and never began are
 * released when it stops.
 */
export async function runDeliveryLane({
  sql,
  mailer,
  engine,
  wakeups,
  slots,
  queue,
  token,
  runForMs,
  signal,
  encryptionKey,
  publicUrl,
  ratePerSecond,
  batchSize = 50,
  leaseSeconds = 30,
  idlePollMs = 2000,
}: {
  sql: Sql;
  mailer: Mailer;
  engine: WorkflowEngine;
  wakeups: QueueWakeups;
  slots: DeliverySlots;
  queue: string;
  token: string;
  runForMs: number;
  signal: AbortSignal;
  encryptionKey: string;
  publicUrl: string;
  /** Each project's send throttle (SEND_RATE_PER_SECOND), shared by every lane of the install. */
  ratePerSecond: number;
  batchSize?: number;
  leaseSeconds?: number;
  idlePollMs?: number;
}): Promise<LaneReport> {
  const report: LaneReport = { sent: 0, failed: 0, retrying: 0 };
  const until = Date.now() + runForMs;
  const held = new Set<string>();
  const renewal = setInterval(
    () => {
      if (held.size === 0) return;
      renewEmailLeases(sql, { emailIds: [...held], token, leaseSeconds }).catch(() => undefined); // the next renewal tries again; the lease has room for it
    },
    (leaseSeconds * 1000) / 3,
  );

  const deliver = async (row: DeliverableEmail): Promise<void> => {
    if (signal.aborted) return; // stays held, released below
    try {
      const composed = await composeMessage({ sql, row, encryptionKey, publicUrl });
      if ('failed' in composed) {
        await failEmail({ sql, emailId: row.id, error: composed.failed });
        report.failed += 1;
      } else if ((await sendAndRecord({ sql, mailer, emailId: row.id, composed })) === 'SENT') {
        report.sent += 1;
      } else {
        report.failed += 1;
      }
    } catch (error) {
      // Not an SMTP answer but the database failing (stopping, restarting): no reason for a
      // send-email workflow, which would race this lane's next run for the row. The email stays
      // in this lane's hands; its next run (same token) or, after the lease, any lane takes it.
      if (!(error instanceof MailDeliveryError)) return;
      const message = error.message;
      const handedOff = await handOff({ sql, engine, row, error: message, leaseSeconds }).catch(
        () => undefined,
      );
      if (handedOff === undefined) return;
      if (handedOff) report.retrying += 1;
    }
    held.delete(row.id);
  };

  try {
    while (!signal.aborted && Date.now() < until) {
      const seen = wakeups.generation();
      const { emails: batch, throttledForMs } = await claimQueuedEmails(sql, {
        queue,
        token,
        limit: batchSize,
        leaseSeconds,
        ratePerSecond,
      });
      if (batch.length === 0) {
        // Mail that waits on its project's throttle is due at a known moment; new mail wakes us.
        const idle = Math.min(throttledForMs ?? idlePollMs, idlePollMs, until - Date.now());
        await wakeups.waitForChange(seen, Math.max(0, idle), signal);
        continue;
      }
      for (const row of batch) held.add(row.id);
      await Promise.all(batch.map((row) => slots(() => deliver(row))));
    }
  } finally {
    clearInterval(renewal);
    if (held.size > 0) {
      await releaseEmailLeases(sql, { emailIds: [...held], token }).catch(() => undefined); // left to expire
    }
  }
  return report;
}
