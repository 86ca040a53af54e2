import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { z } from 'zod';
import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import { findInboundProject } from '../../db/sql/inbound.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { capOf, chargeCap } from '../billing/billing.service.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { DomainError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { cleanStorableText, storableText } from '../shared/storable-text.pure.js';
import type { QueueNotifier } from '../shared/ports.js';

/** What the inbound receiver needs: the pool, where messages are kept, and the dispatcher. */
export interface InboundDeps {
  sql: Sql;
  dataDir: string;
  dispatch: { queue: string; dispatchNotifier: QueueNotifier };
}

/** A message the receiver refuses for good (an SMTP 5xx), with the reason. */
export class InboundRefused extends Error {}

/** The event's copy of the text and HTML parts stops here; the whole message is on disk. */
const PART_MAX = 64 * 1024;

const host = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** The project that receives mail for `address`: one of its verified domains, else none. */
export async function inboundProjectOf({
  sql,
  address,
}: {
  sql: Sql;
  address: string;
}): Promise<string | undefined> {
  return findInboundProject(sql, { host: host(storableText(address)) });
}

/**
 * Keeps a received message: the raw message under DATA_DIR (inbound/<project>/<event id>.eml)
 * first, then, in one statement, the sender as a contact (created unsubscribed; an existing one
 * is left as it is) with an `email.received` event describing the message, which the
 * automation dispatcher then takes like any event. Answers the event's id.
 */
export async function receiveInboundMail({
  sql,
  dataDir,
  dispatch,
  projectId,
  raw,
  envelope,
}: InboundDeps & {
  projectId: string;
  raw: Buffer;
  envelope: { from: string; to: string[] };
}): Promise<{ eventId: string; contactId: string }> {
  const parsed = await PostalMime.parse(raw);
  const sender = normaliseEmail(storableText(parsed.from?.address || envelope.from || ''));
  if (!z.email().safeParse(sender).success) {
    throw new InboundRefused('The message names no sender address (From or MAIL FROM)');
  }
  const eventId = newId();
  const storageKey = path.posix.join('inbound', projectId, `${eventId}.eml`);
  await mkdir(path.join(dataDir, 'inbound', projectId), { recursive: true });
  await writeFile(path.join(dataDir, storageKey), raw);
  const header = (name: string): string | undefined =>
    parsed.headers.find((h) => h.key === name)?.value;
  // Text from elsewhere: NULs and lone surrogates (PostgreSQL cannot store them) are cleaned out.
  const data = cleanStorableText({
    messageId: parsed.messageId ?? null,
    from: sender,
    fromName: parsed.from?.name || null,
    to: envelope.to,
    subject: parsed.subject ?? '',
    text: (parsed.text ?? '').slice(0, PART_MAX),
    html: (parsed.html ?? '').slice(0, PART_MAX),
    inReplyTo: header('in-reply-to') ?? null,
    date: parsed.date ?? null,
    size: raw.length,
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename ?? null,
      contentType: a.mimeType,
      size: typeof a.content === 'string' ? a.content.length : a.content.byteLength,
    })),
    storageKey,
  });
  const keep = (tx: Sql) =>
    upsertContacts(tx, {
      projectId,
      defaultSubscribed: false,
      source: 'inbound',
      rows: [
        {
          id: newId(),
          email: sender,
          subscribed: null,
          set: {},
          unset: [],
          event: { id: eventId, name: 'email.received', data },
          flipEventId: newId(),
        },
      ],
    });
  const cap = await capOf({ sql, projectId, category: 'inbound' });
  let row: Awaited<ReturnType<typeof keep>>[number] | undefined;
  try {
    [row] =
      cap === undefined
        ? await keep(sql)
        : await sql.transaction(async (tx) => {
            await chargeCap({ tx, projectId, category: 'inbound', count: 1, cap });
            return keep(tx);
          });
  } catch (error) {
    if (error instanceof DomainError && error.code === 'BILLING_LIMIT_EXCEEDED') {
      await rm(path.join(dataDir, storageKey), { force: true });
      throw new InboundRefused(error.message);
    }
    throw error;
  }
  if (!row) throw new Error('The contact upsert returned no row');
  dispatch.dispatchNotifier.queued(dispatch.queue);
  return { eventId, contactId: row.id };
}
