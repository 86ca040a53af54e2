import {
  claimQueuedEmails,
  holdQueuedEmail,
  markEmailRetrying,
  releaseEmailLeases,
  renewEmailLeases,
  type AcceptedEmail,
  type DeliverableEmail,
} from '../../db/sql/email-delivery.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import {
  MailDeliveryError,
  type Mailer,
  type LaneRun,
  type WorkflowEngine,
} from '../shared/ports.js';
import { composeMessage, failEmail, sendComposed } from './deliver.service.js';
import { createSentRecorder } from './sent-recorder.js';

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
 * claiming the next batch once half of a full one is answered (a lane that waited for its whole
 * batch left the connections idle through each batch's tail, its commit and the next claim);
 * what the server accepted is committed SENT in groups after the 250s (sent-recorder.ts: one
 * statement and one commit per group, at the latest when no email is in flight). With nothing
 * to take it sleeps until the queue's wake-up, a throttled project's next turn or
 * `idlePollMs`. Leases of emails in hand are renewed while the lane lives; a lane that dies
 * leaves them to expire, or to its retried attempt, which carries the same token. Emails it
 * claimed and never began are released when it stops.
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
  slots: DeliverySlots;
  token: string;
  encryptionKey: string;
  publicUrl: string;
  /** Each project's send throttle (SEND_RATE_PER_SECOND), shared by every lane of the install. */
  ratePerSecond: number;
  batchSize?: number;
} & LaneRun): Promise<LaneReport> {
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

  // Emails of the lane between their claim and the server's answer: with none left, what the
  // server accepted is committed at once rather than waiting for more.
  let unanswered = 0;
  const recorder = createSentRecorder({ sql, idle: () => unanswered === 0, groupSize: batchSize });
  // After a full batch (more mail may wait), the next is claimed once no more than `refillAt`
  // emails wait for their answer; after a short one, once the batch has ended, as a claim that
  // finds little would otherwise be repeated for every few emails.
  const refillAt = Math.floor(batchSize / 2);
  let refill: (() => void) | undefined;
  let backlog = false;
  // Every delivery begun and not yet ended (answered and, when accepted, recorded), by email id:
  // the lane's next claim must not take these again (`held` also keeps emails whose delivery
  // ended without settling them, which it should); and the first delivery that threw (none
  // should: the lane then stops, as it would on a failed claim).
  const delivering = new Map<string, Promise<void>>();
  let deliveryError: { error: unknown } | undefined;

  /** Composes and sends one email in a delivery slot; answers what was accepted, for the recorder. */
  const attempt = async (row: DeliverableEmail): Promise<AcceptedEmail | 'settled' | 'kept'> => {
    try {
      const composed = await composeMessage({ sql, row, encryptionKey, publicUrl });
      if ('failed' in composed) {
        await failEmail({ sql, emailId: row.id, error: composed.failed });
        report.failed += 1;
        return 'settled';
      }
      const { message, subject } = composed;
      const answer = await sendComposed({ sql, mailer, emailId: row.id, message });
      if (answer === 'ACCEPTED')
        return { emailId: row.id, messageId: message.messageId ?? null, subject };
      report.failed += 1;
      return 'settled';
    } catch (error) {
      // Not an SMTP answer but the database failing (stopping, restarting): no reason for a
      // send-email workflow, which would race this lane's next run for the row. The email stays
      // in this lane's hands; its next run (same token) or, after the lease, any lane takes it.
      if (!(error instanceof MailDeliveryError)) return 'kept';
      const handedOff = await handOff({
        sql,
        engine,
        row,
        error: error.message,
        leaseSeconds,
      }).catch(() => undefined);
      if (handedOff === undefined) return 'kept';
      if (handedOff) report.retrying += 1;
      return 'settled';
    }
  };

  const deliver = async (row: DeliverableEmail): Promise<void> => {
    type Outcome = Awaited<ReturnType<typeof attempt>> | 'aborted';
    let outcome: Outcome;
    try {
      // Checked once a delivery slot is free: a lane stopped while its batch waits for slots
      // sends no more of it.
      outcome = await slots(async (): Promise<Outcome> =>
        signal.aborted ? 'aborted' : attempt(row),
      );
    } finally {
      unanswered -= 1;
      if (unanswered <= refillAt) refill?.();
    }
    // Kept, or never begun: stays held, released (or left to its lease) below.
    if (outcome === 'kept' || outcome === 'aborted') return recorder.nudge();
    if (outcome !== 'settled') {
      // SENT only once its group commits, after the 250. A commit that keeps failing leaves
      // the email held: its next run (same token) or, after the lease, any lane sends it again.
      const recorded = await recorder.record(outcome).then(
        () => true,
        () => false,
      );
      if (!recorded) return;
      report.sent += 1;
    } else recorder.nudge();
    held.delete(row.id);
  };

  try {
    while (!signal.aborted && Date.now() < until) {
      if (deliveryError) throw deliveryError.error;
      if (!backlog && delivering.size > 0) {
        await Promise.all(delivering.values());
        continue;
      }
      if (unanswered > refillAt) {
        // Every delivery ends (a stopped lane's waiting ones as 'aborted'), so this wakes.
        await new Promise<void>((resolve) => (refill = resolve));
        refill = undefined;
        continue;
      }
      const seen = wakeups.generation();
      const { emails: batch, throttledForMs } = await claimQueuedEmails(sql, {
        queue,
        token,
        limit: batchSize,
        leaseSeconds,
        ratePerSecond,
        inHand: [...delivering.keys()],
      });
      backlog = batch.length === batchSize;
      if (batch.length === 0) {
        // What is in hand ends first (above), then the lane claims again or sleeps. Mail that
        // waits on its project's throttle is due at a known moment; new mail wakes us.
        if (delivering.size > 0) continue;
        const idle = Math.min(throttledForMs ?? idlePollMs, idlePollMs, until - Date.now());
        await wakeups.waitForChange(seen, Math.max(0, idle), signal);
        continue;
      }
      for (const row of batch) held.add(row.id);
      unanswered += batch.length;
      for (const row of batch) {
        const delivery = deliver(row)
          .catch((error: unknown) => {
            deliveryError ??= { error };
          })
          .finally(() => delivering.delete(row.id));
        delivering.set(row.id, delivery);
      }
    }
  } finally {
    // Deliveries under way end first (a failed claim leaves some): leases are released after.
    await Promise.all(delivering.values());
    clearInterval(renewal);
    if (held.size > 0) {
      await releaseEmailLeases(sql, { emailIds: [...held], token }).catch(() => undefined); // left to expire
    }
  }
  if (deliveryError) throw deliveryError.error;
  return report;
}
