import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import {
  countContacts,
  deleteContactRow,
  findContact,
  findContactsByEmail,
  listContactRows,
  updateContactRow,
} from '../../db/sql/contacts.sql.js';
import { isUniqueViolation, type Sql } from '../../db/sql/sql.js';
import { conflict, notFound, requireFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { newestFirstPage, type CursorPage, type PageRequest } from '../shared/pagination.js';
import { toContactView, type ContactView } from './contact-view.js';
import { contactWrite } from './contact-write.js';
import { normaliseEmail, sortData } from './data-rules.pure.js';
import type { SubscriptionState } from './subscription-state.pure.js';

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
  const [row] = await upsertContacts(sql, {
    projectId,
    defaultSubscribed: true,
    source: 'api',
    rows: [contactWrite({ email, data: sortData(data), subscribed: subscribed ?? null })],
  });
  if (!row) throw new Error('The contact upsert returned no row');
  return { ...toContactView(row), _meta: { isNew: row.inserted, isUpdate: !row.inserted } };
}

/** A contact of a project, as the use cases that read or change it name it. */
interface ContactRef {
  sql: Sql;
  projectId: string;
  contactId: string;
}

export async function getContact({ sql, projectId, contactId }: ContactRef): Promise<ContactView> {
  return toContactView(requireFound(await findContact(sql, { projectId, contactId }), 'Contact'));
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
}: ContactRef & {
  email?: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
  /** Recorded on the subscription event a flip emits. */
  source?: string;
}): Promise<ContactView> {
  const sorted = sortData(data);
  try {
    const row = await updateContactRow(sql, {
      projectId,
      contactId,
      email: email === undefined ? null : normaliseEmail(email),
      subscribed: subscribed ?? null,
      set: sorted.set,
      unset: sorted.unset,
      flipEventId: newId(),
      source,
    });
    if (!row) throw notFound('Contact');
    return toContactView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('Another contact of this project has this email');
    throw error;
  }
}

export async function deleteContact({ sql, projectId, contactId }: ContactRef): Promise<void> {
  if (!(await deleteContactRow(sql, { projectId, contactId }))) throw notFound('Contact');
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
  const found = await findContactsByEmail(sql, { projectId, emails: wanted });
  const seen = new Set(found.map((c) => c.email));
  return { found, notFound: wanted.filter((e) => !seen.has(e)) };
}

/** Newest first; the cursor is the last id seen (ids are time-ordered UUID v7). */
export async function listContacts({
  sql,
  projectId,
  search,
  subscribed,
  state,
  ...page
}: PageRequest & {
  sql: Sql;
  projectId: string;
  search?: string;
  subscribed?: boolean;
  state?: SubscriptionState;
}): Promise<CursorPage<ContactView>> {
  const matching = search ? search.trim().toLowerCase() : undefined;
  const filter = { projectId, search: matching, subscribed, state };
  return newestFirstPage(page, {
    rows: (after) => listContactRows(sql, { ...filter, ...after }),
    count: () => countContacts(sql, filter),
    view: toContactView,
  });
}
