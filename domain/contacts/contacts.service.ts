import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { runSql } from '../../db/sql/execute.js';
import { likeSubstring } from '../../db/sql/keyset.js';
import { cursorPage, decodeCursor, type CursorPage } from '../shared/pagination.js';
import { conflict, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Em } from '../shared/ports.js';
import { toContactView, type ContactRow, type ContactView } from './contact-view.js';
import { normaliseEmail, sortData } from './data-rules.pure.js';

const CONTACT_COLUMNS = 'id, email, subscribed, data, created_at, updated_at';

export async function upsertContact({
  em,
  projectId,
  email,
  subscribed,
  data,
}: {
  em: Em;
  projectId: string;
  email: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
}): Promise<ContactView & { _meta: { isNew: boolean; isUpdate: boolean } }> {
  const sorted = sortData(data);
  const [row] = await upsertContacts(em, {
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
  em,
  projectId,
  contactId,
}: {
  em: Em;
  projectId: string;
  contactId: string;
}): Promise<ContactView> {
  const [row] = await runSql<ContactRow>(
    em,
    `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE id = ?::uuid AND project_id = ?::uuid`,
    [contactId, projectId],
  );
  if (!row) throw notFound('Contact');
  return toContactView(row);
}

/** PATCH: data rules as a patch, the email if free, and a flip of `subscribed` emits its event. */
export async function updateContact({
  em,
  projectId,
  contactId,
  email,
  subscribed,
  data,
}: {
  em: Em;
  projectId: string;
  contactId: string;
  email?: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
}): Promise<ContactView> {
  const sorted = sortData(data);
  try {
    const [row] = await runSql<ContactRow>(
      em,
      `WITH up AS (
         UPDATE contacts c SET
           email = coalesce(?::text, c.email),
           data = (c.data - ARRAY(SELECT jsonb_array_elements_text(?::jsonb))) || ?::jsonb,
           subscribed = coalesce(?::boolean, c.subscribed),
           subscription_changed_at = CASE WHEN ?::boolean IS NOT NULL AND ?::boolean <> c.subscribed
                                          THEN now() ELSE c.subscription_changed_at END,
           updated_at = now()
         WHERE c.id = ?::uuid AND c.project_id = ?::uuid
         RETURNING c.*, (c.subscription_changed_at = now()) AS flipped
       ),
       recorded AS (
         INSERT INTO events (id, project_id, contact_id, name, data, created_at)
         SELECT ?::uuid, project_id, id,
                CASE WHEN subscribed THEN 'contact.subscribed' ELSE 'contact.unsubscribed' END,
                jsonb_build_object('source', 'api'), now()
           FROM up WHERE flipped
         RETURNING id
       )
       SELECT ${CONTACT_COLUMNS} FROM up`,
      [
        email === undefined ? null : normaliseEmail(email),
        JSON.stringify(sorted.unset),
        JSON.stringify(sorted.set),
        subscribed ?? null,
        subscribed ?? null,
        subscribed ?? null,
        contactId,
        projectId,
        newId(),
      ],
    );
    if (!row) throw notFound('Contact');
    return toContactView(row);
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict('Another contact of this project has this email');
    }
    throw error;
  }
}

export async function deleteContact({
  em,
  projectId,
  contactId,
}: {
  em: Em;
  projectId: string;
  contactId: string;
}): Promise<void> {
  const rows = await runSql(
    em,
    'DELETE FROM contacts WHERE id = ?::uuid AND project_id = ?::uuid RETURNING id',
    [contactId, projectId],
  );
  if (rows.length === 0) throw notFound('Contact');
}

/** Newest first; the cursor is the last id seen (ids are time-ordered UUID v7). */
export async function listContacts({
  em,
  projectId,
  limit,
  cursor,
  search,
}: {
  em: Em;
  projectId: string;
  limit: number;
  cursor?: string;
  search?: string;
}): Promise<CursorPage<ContactView>> {
  const filters = ['project_id = ?::uuid'];
  const params: unknown[] = [projectId];
  if (search) {
    filters.push(`email ILIKE ? ESCAPE '\\'`);
    params.push(likeSubstring(search.trim().toLowerCase()));
  }
  const where = filters.join(' AND ');
  const pageFilter = cursor ? ' AND id < ?::uuid' : '';
  const pageParams = cursor ? [...params, decodeCursor(cursor).id] : params;
  const [rows, total] = await Promise.all([
    runSql<ContactRow>(
      em,
      `SELECT ${CONTACT_COLUMNS} FROM contacts WHERE ${where}${pageFilter} ORDER BY id DESC LIMIT ?`,
      [...pageParams, limit + 1],
    ),
    cursor
      ? Promise.resolve(undefined)
      : runSql<{ n: number }>(
          em,
          `SELECT count(*)::int AS n FROM contacts WHERE ${where}`,
          params,
        ).then((r) => r[0]?.n ?? 0),
  ]);
  return cursorPage({
    rows: rows.map(toContactView),
    limit,
    total,
    positionOf: (c) => ({ sort: c.id, id: c.id }),
  });
}

export async function lookupContacts({
  em,
  projectId,
  emails,
}: {
  em: Em;
  projectId: string;
  emails: string[];
}): Promise<{ found: { id: string; email: string }[]; notFound: string[] }> {
  const wanted = [...new Set(emails.map(normaliseEmail))];
  const found = await runSql<{ id: string; email: string }>(
    em,
    `SELECT id, email FROM contacts
      WHERE project_id = ?::uuid AND email IN (SELECT jsonb_array_elements_text(?::jsonb))`,
    [projectId, JSON.stringify(wanted)],
  );
  const seen = new Set(found.map((c) => c.email));
  return { found, notFound: wanted.filter((e) => !seen.has(e)) };
}
