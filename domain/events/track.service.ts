import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { contactWrite } from '../contacts/contact-write.js';
import { eventData, sortData } from '../contacts/data-rules.pure.js';
import { upsertAskingConfirmation, type OptInMail } from '../contacts/opt-in-request.service.js';
import { withIdempotencyKey } from '../idempotency/idempotency.service.js';
import { validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import type { Sql } from '../../db/sql/sql.js';
import { isReservedEventName } from './event-names.pure.js';
import type { TrackWrites } from './track-writes.js';

export interface TrackInput {
  email: string;
  event: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
}

export interface TrackResult {
  contact: string;
  event: string;
  timestamp: string;
}

/**
 * Records a tracked event: the contact is created or updated (data rules, subscription flip and
 * its event) and the event is recorded, all in one statement (shared with the project's
 * concurrent plain tracks, see track-writes.ts); the events table's trigger puts it in the
 * automation outbox when something uses it, and the dispatcher is woken. Every call records a
 * new event; an Idempotency-Key makes a retry a 409 instead.
 *
 * The public key cannot subscribe anyone by itself when the project asks for a confirmation
 * (double opt-in): a new contact it creates (unless `subscribed: false`) and a contact it sends
 * `subscribed: true` for are asked to confirm by email instead, once while they wait.
 */
export async function trackEvent({
  sql,
  dispatch,
  writes,
  projectId,
  input,
  idempotencyKey,
  confirmation,
}: {
  sql: Sql;
  /** The task queue whose dispatcher takes this API's events, and its wake-up. */
  dispatch: { queue: string; dispatchNotifier: QueueNotifier };
  /** The process's shared writer of plain tracks (see track-writes.ts). */
  writes: TrackWrites;
  projectId: string;
  input: TrackInput;
  idempotencyKey?: string;
  /**
   * Set when the caller is the public key: whether the project asks its subscriptions for a
   * confirmation (read with the key), and how a confirmation email would be sent.
   */
  confirmation?: OptInMail & { required: boolean };
}): Promise<TrackResult> {
  const name = input.event.trim();
  if (isReservedEventName(name)) {
    throw validationError({
      field: 'event',
      message: `"${name}" is emitted by the service itself and cannot be tracked`,
      code: 'reserved_event',
    });
  }
  const sorted = sortData(input.data);
  const eventId = newId();
  const contact = contactWrite({ email: input.email, data: sorted });
  const event = { id: eventId, name, data: eventData(sorted) };
  const asking = confirmation?.required === true && input.subscribed !== false;
  const row = { ...contact, subscribed: input.subscribed ?? null, event };
  // A plain track shares its statement with the project's concurrent ones; a keyed or asking one
  // writes in a transaction of its own.
  const plain = !idempotencyKey && !asking;
  const { row: upserted, confirmationQueued } = plain
    ? { row: await writes(projectId, row), confirmationQueued: false }
    : await withIdempotencyKey(
        { sql, projectId, key: idempotencyKey, scope: 'track' },
        async (tx) => {
          if (asking) {
            return upsertAskingConfirmation({
              sql: tx,
              mail: confirmation,
              projectId,
              contact,
              source: 'track',
              event,
              asks: (upserted) => input.subscribed === true || upserted.inserted,
              resend: false,
            });
          }
          const [written] = await upsertContacts(tx, {
            projectId,
            defaultSubscribed: true,
            source: 'track',
            rows: [row],
          });
          return { row: written, confirmationQueued: false };
        },
      );
  if (!upserted) throw new Error('The contact upsert returned no row');
  dispatch.dispatchNotifier.queued(dispatch.queue);
  if (confirmationQueued) confirmation?.queueNotifier.queued(confirmation.deliveryQueue);
  return {
    contact: upserted.id,
    event: eventId,
    timestamp: new Date(upserted.updated_at).toISOString(),
  };
}
