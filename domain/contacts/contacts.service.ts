import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { likeSubstring } from '../../db/sql/keyset.js';
import { isUniqueViolation, type Sql } from '../../db/sql/sql.js';
import { conflict, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { cursorPage, decodeCursor, type CursorPage } from '../shared/pagination.js';
import { toContactView, type ContactRow, type ContactView } from './contact-view.js';
import { normaliseEmail, sortData } from './data-rules.pure.js';

const CONTACT_COLUMNS = 'id, email, subscribed, data, created_at, updated_at';

export async function upsertContact({
  sql,
  projectId,
  email,
  subscribed,
  data,
}: {
  sql: Sql;
  projectId: string;
  email: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
}): Promise<ContactView & { _meta: { isNew: boolean; isUpdate: boolean } }> {
  const sorted = sortData(data);
  const [row] = await upsertContacts(sql, {
    projectId,
    defaultSubscribed: true,
    source: 'api',
    rows: [
      {
        id: newId(),
        email: normaliseEmail(email),
        subscribed: subscribed ?? null,
        set: sorted.set,
        unset: sorted.unset,
        flipEventId: newId(),
      },
    ],
  });
  if (!row) throw new Error('The contact upsert returned no row');
  return { ...toContactView(row), _meta: { isNew: row.inserted, isUpdate: !row.inserted } };
}

export async function getContact({
  sql,
  projectId,
  contactId,
}: {
  sql: Sql;
  projectId: string;
  contactId: string;
}): Promise<ContactView> {
  const [row] = await sql.query<ContactRow>(
    `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE id = $1 AND project_id = $2`,
    [contactId, projectId],
  );
  if (!row) throw notFound('Contact');
  return toContactView(row);
}

/** PATCH: data rules as a patch, the email if free, and a flip of `subscribed` emits its event. */
export async function updateContact({
  sql,
  projectId,
  contactId,
  email,
  subscribed,
  data,
  source = 'api',
}: {
  sql: Sql;
  projectId: string;
  contactId: string;
  email?: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
  /** Recorded on the subscription event a flip emits. */
  source?: string;
}): Promise<ContactView> {
  const sorted = sortData(data);
  try {
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
       SELECT ${CONTACT_COLUMNS} FROM up`,
      [
        email === undefined ? null : normaliseEmail(email),
        sorted.unset,
        JSON.stringify(sorted.set),
        subscribed ?? null,
        contactId,
        projectId,
        newId(),
        source,
      ],
    );
    if (!row) throw notFound('Contact');
    return toContactView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('Another contact of this project has this email');
    throw error;
  }
}

export async function deleteContact({
  sql,
  projectId,
  contactId,
}: {
  sql: Sql;
  projectId: string;
  contactId: string;
}): Promise<void> {
  const rows = await sql.query(
    'DELETE FROM contacts WHERE id = $1 AND project_id = $2 RETURNING id',
    [contactId, projectId],
  );
  if (rows.length === 0) throw notFound('Contact');
}

/** Newest first; the cursor is the last id seen (ids are time-ordered UUID v7). */
export async function listContacts({
  sql,
  projectId,
  limit,
  cursor,
  search,
}: {
  sql: Sql;
  projectId: string;
  limit: number;
  cursor?: string;
  search?: string;
}): Promise<CursorPage<ContactView>> {
  const params: unknown[] = [projectId];
  let where = 'project_id = $1';
  if (search) {
    params.push(likeSubstring(search.trim().toLowerCase()));
    where += ` AND email ILIKE $${params.length} ESCAPE '\\'`;
  }
  const countParams = [...params];
  const countWhere = where;
  if (cursor) {
    params.push(decodeCursor(cursor).id);
    where += ` AND id < $${params.length}`;
  }
  params.push(limit + 1);
  const [rows, total] = await Promise.all([
    sql.query<ContactRow>(
      `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE ${where} ORDER BY id DESC LIMIT $${params.length}`,
      params,
    ),
    cursor
      ? Promise.resolve(undefined)
      : sql
          .query<{ n: number }>(
            `SELECT count(*)::int AS n FROM contacts WHERE ${countWhere}`,
            countParams,
          )
          .then((r) => r[0]?.n ?? 0),
  ]);
  return cursorPage({
    rows: rows.map(toContactView),
    limit,
    total,
    positionOf: (c) => ({ sort: c.id, id: c.id }),
  });
}

export async function lookupContacts({
  sql,
  projectId,
  emails,
}: {
  sql: Sql;
  projectId: string;
  emails: string[];
}): Promise<{ found: { id: string; email: string }[]; notFound: string[] }> {
  const wanted = [...new Set(emails.map(normaliseEmail))];
  const found = await sql.query<{ id: string; email: string }>(
    'SELECT id, email FROM contacts WHERE project_id = $1 AND email = ANY($2::text[])',
    [projectId, wanted],
  );
  const seen = new Set(found.map((c) => c.email));
  return { found, notFound: wanted.filter((e) => !seen.has(e)) };
}
