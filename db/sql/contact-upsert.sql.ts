import type { SubscriptionState } from '../../domain/contacts/subscription-state.pure.js';
import { subscriptionStateSql } from './opt-in-state.sql.js';
import type { Sql } from './sql.js';

export interface ContactUpsertRow {
  /** The id the contact gets if it is new. */
  id: string;
  email: string;
  /** null keeps an existing contact's state; a new contact gets the caller's default. */
  subscribed: boolean | null;
  set: Record<string, unknown>;
  unset: string[];
  /** An event to record for this contact in the same statement (track). */
  event?: { id: string; name: string; data: Record<string, unknown> };
  /** The id a subscription event gets if this write flips `subscribed`. */
  flipEventId: string;
}

export interface ContactUpsertResult {
  ord: number;
  id: string;
  email: string;
  inserted: boolean;
  subscribed: boolean;
  subscription_state: SubscriptionState;
  opt_in_requested_at: Date | null;
  opt_in_confirmed_at: Date | null;
  flipped: boolean;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
}

/**
 * Creates or updates many contacts of one project in ONE statement, with the data rules applied
 * by the database: `(data - unset) || set` on the latest row version, so concurrent writers never
 * lose each other's keys. In the same statement it records each row's event and, where the write
 * flipped `subscribed`, a contact.subscribed / contact.unsubscribed event. Rows must have
 * distinct emails. Results come back in input order.
 */
export async function upsertContacts(
  sql: Sql,
  {
    projectId,
    rows,
    defaultSubscribed,
    source,
  }: { projectId: string; rows: ContactUpsertRow[]; defaultSubscribed: boolean; source: string },
): Promise<ContactUpsertResult[]> {
  if (rows.length === 0) return [];
  return sql.query<ContactUpsertResult>(
    `${CONTACT_UPSERT_CTES}
     SELECT ord, id, email, inserted, subscribed, subscription_state, opt_in_requested_at,
            opt_in_confirmed_at, flipped, data, created_at, updated_at
       FROM flagged ORDER BY ord`,
    contactUpsertParams({ projectId, rows, defaultSubscribed, source }),
    'contact-upsert',
  );
}

/** The parameters ($1-$4) of CONTACT_UPSERT_CTES. */
export function contactUpsertParams({
  projectId,
  rows,
  defaultSubscribed,
  source,
}: {
  projectId: string;
  rows: ContactUpsertRow[];
  defaultSubscribed: boolean;
  source: string;
}): unknown[] {
  const input = rows.map(({ id, email, subscribed, set, unset, event, flipEventId }, ord) => ({
    ord,
    id,
    email,
    subscribed,
    set,
    unset,
    event_id: event?.id ?? null,
    event_name: event?.name ?? null,
    event_data: event?.data ?? null,
    flip_event_id: flipEventId,
  }));
  return [JSON.stringify(input), projectId, defaultSubscribed, source];
}

/**
 * The upsert as CTEs (`input`, `up`, `flagged`, `recorded`) over $1-$4, for statements that
 * write more in the same round trip; `flagged` has the resulting contacts with their input `ord`.
 */
export const CONTACT_UPSERT_CTES = `WITH input AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(
         ord int, id uuid, email text, subscribed boolean, set jsonb, unset text[],
         event_id uuid, event_name text, event_data jsonb, flip_event_id uuid)
     ),
     up AS (
       INSERT INTO contacts AS c (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
       SELECT i.id, $2::uuid, i.email, coalesce(i.subscribed, $3::boolean), i.set, now(), now(), now() FROM input i
       ON CONFLICT (project_id, email) DO UPDATE SET
         (data, subscribed, subscription_changed_at, updated_at) = (
           SELECT (c.data - coalesce(i.unset, '{}')) || excluded.data,
                  coalesce(i.subscribed, c.subscribed),
                  CASE WHEN i.subscribed IS NOT NULL AND i.subscribed <> c.subscribed
                       THEN now() ELSE c.subscription_changed_at END,
                  now()
             FROM input i WHERE i.email = excluded.email)
       RETURNING c.id, c.email, (c.xmax = 0) AS inserted, c.subscribed, c.subscription_changed_at,
                 ${subscriptionStateSql('c')} AS subscription_state, c.opt_in_requested_at,
                 c.opt_in_confirmed_at, c.data, c.created_at, c.updated_at
     ),
     flagged AS (
       SELECT up.*, i.ord, i.event_id, i.event_name, i.event_data, i.flip_event_id,
              (NOT up.inserted AND up.subscription_changed_at = now()) AS flipped
         FROM up JOIN input i ON i.email = up.email
     ),
     recorded AS (
       INSERT INTO events (id, project_id, contact_id, name, data, created_at)
       SELECT event_id, $2::uuid, id, event_name, event_data, now() FROM flagged WHERE event_id IS NOT NULL
       UNION ALL
       SELECT flip_event_id, $2::uuid, id,
              CASE WHEN subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END,
              jsonb_build_object('source', $4::text), now()
         FROM flagged WHERE flipped
       RETURNING id
     )`;
