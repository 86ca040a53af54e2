import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { eventData, normaliseEmail, sortData } from '../contacts/data-rules.pure.js';
import { withIdempotencyKey } from '../idempotency/idempotency.service.js';
import { validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import type { Sql } from '../../db/sql/sql.js';
import { isReservedEventName } from './event-names.pure.js';

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
 * its event) and the event is recorded, all in one statement; the events table's trigger puts it
 * in the automation outbox, and the dispatcher is woken. Every call records a new event; an
 * Idempotency-Key makes a retry a 409 instead.
 */
export async function trackEvent({
  sql,
  dispatch,
  projectId,
  input,
  idempotencyKey,
}: {
  sql: Sql;
  /** The task queue whose dispatcher takes this API's events, and its wake-up. */
  dispatch: { queue: string; dispatchNotifier: QueueNotifier };
  projectId: string;
  input: TrackInput;
  idempotencyKey?: string;
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
  const [row] = await withIdempotencyKey(
    { sql, projectId, key: idempotencyKey, scope: 'track' },
    (tx) =>
      upsertContacts(tx, {
        projectId,
        defaultSubscribed: true,
        source: 'track',
        rows: [
          {
            id: newId(),
            email: normaliseEmail(input.email),
            subscribed: input.subscribed ?? null,
            set: sorted.set,
            unset: sorted.unset,
            event: { id: eventId, name, data: eventData(sorted) },
            flipEventId: newId(),
          },
        ],
      }),
  );
  if (!row) throw new Error('The contact upsert returned no row');
  dispatch.dispatchNotifier.queued(dispatch.queue);
  return { contact: row.id, event: eventId, timestamp: new Date(row.updated_at).toISOString() };
}
