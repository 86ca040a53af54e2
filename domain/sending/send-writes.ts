import {
  upsertContactsAndQueueEmails,
  type QueuedEmailResult,
  type QueuedSend,
} from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { createGroupCommit, type GroupedWrite } from '../shared/group-commit.js';

/** Writes one recipient's contact and email row for a project (the group). */
export type SendWrites = GroupedWrite<QueuedSend, QueuedEmailResult>;

/**
 * The plain single-recipient send (no Idempotency-Key, attachments or monthly cap to charge):
 * concurrent sends of a project share one statement (createGroupCommit), two to the same address
 * never. What a send answers is the same either way: its own contact and email, after its commit.
 * One per API process.
 */
export function createSendWrites({ sql, maxBatch }: { sql: Sql; maxBatch?: number }): SendWrites {
  return createGroupCommit({
    maxBatch,
    distinctBy: (send) => send.contact.email,
    write: (projectId, sends) =>
      upsertContactsAndQueueEmails(sql, {
        projectId,
        sends,
        defaultSubscribed: false,
        source: 'send',
      }),
  });
}
