import { markEmailsSent, type AcceptedEmail } from '../../db/sql/email-delivery.sql.js';
import type { Sql } from '../../db/sql/sql.js';

/** How long a SENT commit that failed after the server's 250 is retried. */
export const RECORD_SENT_RETRY_MS = 20_000;

/**
 * Records the server's 250s in groups: one statement and one commit (markEmailsSent) for every
 * email accepted since the previous group began, never before its 250. A group goes when it holds
 * `groupSize` emails, when nothing else of its lane is in flight (`idle()`), or `maxDelayMs`
 * after its first email, whichever comes first; one group commits at a time, and emails accepted
 * meanwhile wait for the next. A worker that dies between a 250 and its group's commit (at most
 * maxDelayMs plus a commit) leaves that email QUEUED under its lane's lease: it is sent a second
 * time, never dropped. A commit that fails (the database stopping or restarting) is retried on a
 * fresh connection for RECORD_SENT_RETRY_MS while the lane's lease keeps the emails in its hands.
 */
export function createSentRecorder({
  sql,
  idle,
  groupSize = 50,
  // A statement's fixed cost (triggers, plan, commit) is several emails' worth: at 20 ms a
  // /v1/send lane's groups held ~14 emails, at 100 ms ~37 (bench/README.md, eleventh session).
  maxDelayMs = 100,
}: {
  sql: Sql;
  /** True when the lane has no email between its claim and its 250 (so nothing to wait for). */
  idle: () => boolean;
  groupSize?: number;
  maxDelayMs?: number;
}): {
  /** Resolves once `email` is committed SENT; rejects when its commit kept failing. */
  record(email: AcceptedEmail): Promise<void>;
  /** Commits what waits now (a send just ended and nothing else is in flight). */
  nudge(): void;
} {
  let pending: { email: AcceptedEmail; done: (error?: unknown) => void }[] = [];
  let committing = false;
  let timer: NodeJS.Timeout | undefined;

  const commit = async (group: AcceptedEmail[]): Promise<void> => {
    const giveUpAt = Date.now() + RECORD_SENT_RETRY_MS;
    for (;;) {
      try {
        await markEmailsSent(sql, { emails: group });
        return;
      } catch (error) {
        if (Date.now() > giveUpAt) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };

  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    if (committing || pending.length === 0) return;
    const group = pending;
    pending = [];
    committing = true;
    // Ids in order, so two groups touching the same rows lock them in the same order.
    const emails = group.map((g) => g.email).sort((a, b) => (a.emailId < b.emailId ? -1 : 1));
    commit(emails)
      .then(
        () => {
          for (const g of group) g.done();
        },
        (error: unknown) => {
          for (const g of group) g.done(error ?? new Error('SENT not recorded'));
        },
      )
      .finally(() => {
        committing = false;
        consider();
      });
  };

  const consider = (): void => {
    if (pending.length === 0 || committing) return;
    if (pending.length >= groupSize || idle()) flush();
    else timer ??= setTimeout(flush, maxDelayMs);
  };

  return {
    record: (email) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ email, done: (error) => (error === undefined ? resolve() : reject(error)) });
        consider();
      }),
    nudge: consider,
  };
}
