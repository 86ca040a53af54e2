import type { SubscriptionState } from '../../domain/contacts/subscription-state.pure.js';
import { likeSubstring } from '../../domain/shared/like-pattern.pure.js';
import { subscriptionStateSql } from './opt-in-state.sql.js';
import { countDeleted, deleteOwnedRow, findOwnedRow } from './rows.js';
import type { Sql } from './sql.js';

export interface ContactRow {
  id: string;
  email: string;
  subscribed: boolean;
  subscription_state: SubscriptionState;
  opt_in_requested_at: Date | string | null;
  opt_in_confirmed_at: Date | string | null;
  data: Record<string, unknown>;
  created_at: Date | string;
  updated_at: Date | string;
}

/** The ContactRow columns of the contacts relation `c`. */
export const contactColumns = (c: string): string =>
  `${c}.id, ${c}.email, ${c}.subscribed, ${subscriptionStateSql(c)} AS subscription_state,
   ${c}.opt_in_requested_at, ${c}.opt_in_confirmed_at, ${c}.data, ${c}.created_at, ${c}.updated_at`;

const CONTACT_COLUMNS = contactColumns('contacts');

const CONTACTS = { table: 'contacts', columns: CONTACT_COLUMNS };

/** A list's filter on SubscriptionState over the contacts relation `c`, $n being the state. */
const stateFilterSql = (c: string, n: number): string =>
  `($${n}::text IS NULL OR ${subscriptionStateSql(c)} = $${n}::text)`;

export const findContact = (sql: Sql, ids: { projectId: string; contactId: string }) =>
  findOwnedRow<ContactRow>(sql, CONTACTS, { id: ids.contactId, ownerId: ids.projectId });

/**
 * PATCH semantics in one statement: `(data - unset) || set` on the current row, the email when
 * given, and a flip of `subscribed` records contact.subscribed / contact.unsubscribed (with
 * `source`) under `flipEventId`. Throws a unique violation when the email is another contact's.
 */
export async function updateContactRow(
  sql: Sql,
  {
    projectId,
    contactId,
    email,
    subscribed,
    set,
    unset,
    flipEventId,
    source,
  }: {
    projectId: string;
    contactId: string;
    email: string | null;
    subscribed: boolean | null;
    set: Record<string, unknown>;
    unset: string[];
    flipEventId: string;
    source: string;
  },
): Promise<ContactRow | undefined> {
  const [row] = await sql.query<ContactRow>(
    `WITH up AS (
       UPDATE contacts c SET
         email = coalesce($1::text, c.email),
         data = (c.data - $2::text[]) || $3::jsonb,
         subscribed = coalesce($4::boolean, c.subscribed),
         subscription_changed_at = CASE WHEN $4::boolean IS NOT NULL AND $4::boolean <> c.subscribed
                                        THEN now() ELSE c.subscription_changed_at END,
         updated_at = now()
       WHERE c.id = $5 AND c.project_id = $6
       RETURNING c.*, (c.subscription_changed_at = now()) AS flipped
     ),
     recorded AS (
       INSERT INTO events (id, project_id, contact_id, name, data, created_at)
       SELECT $7, project_id, id,
              CASE WHEN subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END,
              jsonb_build_object('source', $8::text), now()
         FROM up WHERE flipped
       RETURNING id
     )
     SELECT ${contactColumns('up')} FROM up`,
    [email, unset, JSON.stringify(set), subscribed, contactId, projectId, flipEventId, source],
  );
  return row;
}

/** Deletes one contact (its events go with it); false when the project has no such contact. */
export const deleteContactRow = (sql: Sql, ids: { projectId: string; contactId: string }) =>
  deleteOwnedRow(sql, CONTACTS, { id: ids.contactId, ownerId: ids.projectId });

/** What a contacts list is narrowed to: part of the email, `subscribed`, a SubscriptionState. */
export interface ContactFilter {
  projectId: string;
  search?: string;
  subscribed?: boolean;
  state?: SubscriptionState;
}

/**
 * A page of contacts, newest first, after the keyset `afterId` (ids are time-ordered UUID v7);
 * `limit + 1` rows come back so the caller can tell whether more follow. `search` matches part
 * of the email, any case.
 */
export async function listContactRows(
  sql: Sql,
  {
    projectId,
    search,
    subscribed,
    state,
    afterId,
    limit,
  }: ContactFilter & { afterId?: string; limit: number },
): Promise<ContactRow[]> {
  return sql.query<ContactRow>(
    `SELECT ${CONTACT_COLUMNS} FROM contacts
      WHERE project_id = $1
        AND ($2::text IS NULL OR email ILIKE $2 ESCAPE '\\')
        AND ($3::uuid IS NULL OR id < $3::uuid)
        AND ($5::boolean IS NULL OR subscribed = $5)
        AND ${stateFilterSql('contacts', 6)}
      ORDER BY id DESC LIMIT $4`,
    [
      projectId,
      search ? likeSubstring(search) : null,
      afterId ?? null,
      limit + 1,
      subscribed ?? null,
      state ?? null,
    ],
  );
}

export async function countContacts(
  sql: Sql,
  { projectId, search, subscribed, state }: ContactFilter,
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM contacts
      WHERE project_id = $1 AND ($2::text IS NULL OR email ILIKE $2 ESCAPE '\\')
        AND ($3::boolean IS NULL OR subscribed = $3)
        AND ${stateFilterSql('contacts', 4)}`,
    [projectId, search ? likeSubstring(search) : null, subscribed ?? null, state ?? null],
  );
  return row?.n ?? 0;
}

export async function findContactsByEmail(
  sql: Sql,
  { projectId, emails }: { projectId: string; emails: string[] },
): Promise<{ id: string; email: string }[]> {
  return sql.query<{ id: string; email: string }>(
    'SELECT id, email FROM contacts WHERE project_id = $1 AND email = ANY($2::text[])',
    [projectId, emails],
  );
}

export const contactExists = async (sql: Sql, ids: { projectId: string; contactId: string }) =>
  (await findOwnedRow(
    sql,
    { table: 'contacts', columns: '1' },
    { id: ids.contactId, ownerId: ids.projectId },
  )) !== undefined;

/** Deletes the project's contacts among `contactIds`; answers how many there were. */
export async function deleteContactsById(
  sql: Sql,
  { projectId, contactIds }: { projectId: string; contactIds: string[] },
): Promise<number> {
  return countDeleted(sql, 'DELETE FROM contacts WHERE project_id = $1 AND id = ANY($2::uuid[])', [
    projectId,
    contactIds,
  ]);
}

/**
 * Sets `subscribed` on the project's contacts among `contactIds` whose state differs, recording
 * one contact.subscribed / contact.unsubscribed event (with `source`) per contact that flipped;
 * answers how many flipped.
 */
export async function setSubscriptionById(
  sql: Sql,
  {
    projectId,
    contactIds,
    subscribed,
    source,
  }: { projectId: string; contactIds: string[]; subscribed: boolean; source: string },
): Promise<number> {
  const [row] = await sql.query<{ n: number }>(
    `WITH flipped AS (
       UPDATE contacts SET subscribed = $1, subscription_changed_at = now(), updated_at = now()
        WHERE project_id = $2 AND subscribed <> $1 AND id = ANY($3::uuid[])
       RETURNING id, project_id
     ),
     recorded AS (
       INSERT INTO events (id, project_id, contact_id, name, data, created_at)
       SELECT uuid_generate_v7(now()), project_id, id,
              CASE WHEN $1 THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END,
              jsonb_build_object('source', $4::text), now()
         FROM flipped
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM flipped`,
    [subscribed, projectId, contactIds, source],
  );
  return row?.n ?? 0;
}

/**
 * Adds `tag` to the contact's `data.tags` list unless it holds it already (a missing or null list
 * starts one); `before` is the list as it was. Undefined: no such contact in the project.
 */
export async function addContactTag(
  sql: Sql,
  { projectId, contactId, tag }: { projectId: string; contactId: string; tag: string },
): Promise<{ added: boolean; before: unknown } | undefined> {
  const [row] = await sql.query<{ added: boolean; before: unknown }>(
    `WITH target AS (
       SELECT id, data -> 'tags' AS tags FROM contacts
        WHERE id = $1 AND project_id = $2 FOR UPDATE
     ),
     up AS (
       UPDATE contacts c SET
         data = jsonb_set(c.data, '{tags}',
                  CASE WHEN jsonb_typeof(t.tags) = 'array' THEN t.tags ELSE '[]'::jsonb END
                  || to_jsonb($3::text)),
         updated_at = now()
         FROM target t
        WHERE c.id = t.id
          AND (t.tags IS NULL OR jsonb_typeof(t.tags) = 'null'
               OR (jsonb_typeof(t.tags) = 'array' AND NOT t.tags ? $3))
       RETURNING c.id
     )
     SELECT EXISTS (SELECT 1 FROM up) AS added, t.tags AS before FROM target t`,
    [contactId, projectId, tag],
  );
  return row;
}
