import type { Sql } from '../../db/sql/sql.js';
import type { Mailer, QueueWakeups, WorkflowEngine } from '../shared/ports.js';
import {
  composeMessage,
  deliverableEmailsQuery,
  failEmail,
  sendAndRecord,
  type DeliverableEmail,
} from './deliver.service.js';

export interface LaneReport {
  sent: number;
  failed: number;
  /** Handed to their own send-email workflow after a temporary failure. */
  retrying: number;
}

/** Runs `task` when one of the process's delivery slots (SMTP connections) is free. */
export type DeliverySlots = <T>(task: () => Promise<T>) => Promise<T>;

/**
 * Claims up to `limit` deliverable emails of a queue, oldest first, under a lease. Rows other
 * lanes hold are skipped; rows this lane's token already holds (a retried attempt of the same
 * lane after its worker died) are taken back at once.
 */
export async function claimEmails({
  sql,
  queue,
  token,
  limit,
  leaseSeconds,
}: {
  sql: Sql;
  queue: string;
  token: string;
  limit: number;
  leaseSeconds: number;
}): Promise<DeliverableEmail[]> {
  return sql.query<DeliverableEmail>(
    deliverableEmailsQuery(`
      UPDATE emails SET claimed_by = $2, claimed_until = now() + make_interval(secs => $4)
       WHERE id IN (
         SELECT id FROM emails
          WHERE delivery_queue = $1 AND status = 'QUEUED' AND workflow_started_at IS NULL
            AND (claimed_until IS NULL OR claimed_until < now() OR claimed_by = $2)
          ORDER BY created_at LIMIT $3
          FOR UPDATE SKIP LOCKED)
      RETURNING *`),
    [queue, token, limit, leaseSeconds],
    'claim-emails',
  );
}

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
    await sql.query(
      `UPDATE emails SET claimed_by = NULL, claimed_until = now() + make_interval(secs => $2), error = $3
        WHERE id = $1 AND status = 'QUEUED'`,
      [row.id, leaseSeconds, error.slice(0, 1000)],
    );
    return false;
  }
  await sql.query(
    `UPDATE emails SET workflow_started_at = coalesce(workflow_started_at, now()), claimed_by = NULL,
            claimed_until = NULL, error = $2
      WHERE id = $1 AND status = 'QUEUED'`,
    [row.id, error.slice(0, 1000)],
  );
  return true;
}

/**
 * One delivery lane: until `runForMs` passes or `signal` aborts, claims batches of queued
 * emails and delivers each through a free delivery slot, committing SENT the moment the server
 * accepts. With nothing queued it sleeps until the queue's wake-up (or `idlePollMs`). Leases of
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
      sql
        .query(
          `UPDATE emails SET claimed_until = now() + make_interval(secs => $3)
            WHERE id = ANY($1::uuid[]) AND claimed_by = $2 AND status = 'QUEUED'`,
          [[...held], token, leaseSeconds],
        )
        .catch(() => undefined); // the next renewal tries again; the lease has room for it
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
      const message = error instanceof Error ? error.message : String(error);
      if (await handOff({ sql, engine, row, error: message, leaseSeconds })) report.retrying += 1;
    }
    held.delete(row.id);
  };

  try {
    while (!signal.aborted && Date.now() < until) {
      const seen = wakeups.generation();
      const batch = await claimEmails({ sql, queue, token, limit: batchSize, leaseSeconds });
      if (batch.length === 0) {
        await wakeups.waitForChange(seen, Math.min(idlePollMs, until - Date.now()), signal);
        continue;
      }
      for (const row of batch) held.add(row.id);
      await Promise.all(batch.map((row) => slots(() => deliver(row))));
    }
  } finally {
    clearInterval(renewal);
    if (held.size > 0) {
      await sql
        .query(
          `UPDATE emails SET claimed_by = NULL, claimed_until = NULL
            WHERE id = ANY($1::uuid[]) AND claimed_by = $2 AND status = 'QUEUED'`,
          [[...held], token],
        )
        .catch(() => undefined); // left to expire
    }
  }
  return report;
}
