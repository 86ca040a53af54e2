import { upsertContactAndQueueEmail } from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { eventData, normaliseEmail, sortData } from '../contacts/data-rules.pure.js';
import { unverifiedSender } from '../domains/domains.service.js';
import { matchSenderDomain } from '../domains/sender-domain.pure.js';
import { withIdempotencyKey } from '../idempotency/idempotency.service.js';
import { DomainError, notFound, type FieldError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { QueueNotifier } from '../shared/ports.js';
import { templateProblems } from '../templates/template-engine.js';
import type { TemplateType } from '../templates/template-types.pure.js';
import {
  ATTACHMENT_BYTES_MAX,
  MESSAGE_BYTES_MAX,
  RESERVED_HEADERS,
  base64Bytes,
} from './send-limits.pure.js';

export type Address = string | { name?: string; email: string };

export interface SendInput {
  to: Address | Address[];
  subject?: string;
  body?: string;
  templateId?: string;
  from?: Address;
  senderName?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  attachments?: {
    filename: string;
    content: string;
    contentType: string;
    contentId?: string;
    disposition: 'attachment' | 'inline';
  }[];
  subscribed?: boolean;
  data?: Record<string, unknown>;
}

export interface SendResult {
  emails: {
    contact: { id: string; email: string };
    email: string;
    status: 'QUEUED' | 'SUPPRESSED';
  }[];
  timestamp: string;
}

interface TemplateRow {
  id: string;
  type: TemplateType;
  subject: string;
  body: string;
  from_address: string;
  from_name: string | null;
  reply_to: string | null;
}

/** The template (when named) and the project's verified domains, in one round trip. */
async function loadSendContext({
  sql,
  projectId,
  templateId,
}: {
  sql: Sql;
  projectId: string;
  templateId?: string;
}): Promise<{ template: TemplateRow | null; verifiedDomains: { id: string; domain: string }[] }> {
  const [row] = await sql.query<{
    template: TemplateRow | null;
    domains: { id: string; domain: string }[];
  }>(
    `SELECT (SELECT to_jsonb(t) FROM (
               SELECT id, type, subject, body, from_address, from_name, reply_to
                 FROM templates WHERE id = $2 AND project_id = $1) t) AS template,
            coalesce((SELECT jsonb_agg(jsonb_build_object('id', id, 'domain', domain))
                        FROM domains WHERE project_id = $1 AND status = 'VERIFIED'), '[]') AS domains`,
    [projectId, templateId ?? null],
    'send-context',
  );
  return { template: row?.template ?? null, verifiedDomains: row?.domains ?? [] };
}

const invalid = (errors: FieldError[]): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Validation failed', { errors });

const asAddress = (a: Address): { name?: string; email: string } =>
  typeof a === 'string' ? { email: a } : a;

/**
 * Everything that can be refused is refused before anything is written: content, sender,
 * headers, attachment and message sizes. Then, in one transaction (claiming the Idempotency-Key
 * when given), each recipient in turn is upserted as a contact and gets an email row, QUEUED or
 * SUPPRESSED. Committed, a queued email is durably accepted; the delivery lanes of its queue are
 * woken and deliver it (see delivery-lane.service.ts).
 */
export async function sendEmails({
  sql,
  deliveryQueue,
  queueNotifier,
  projectId,
  input,
  idempotencyKey,
}: {
  sql: Sql;
  /** The task queue whose workers deliver this API's mail. */
  deliveryQueue: string;
  queueNotifier: QueueNotifier;
  projectId: string;
  input: SendInput;
  idempotencyKey?: string;
}): Promise<SendResult> {
  const { template, verifiedDomains } = await loadSendContext({
    sql,
    projectId,
    templateId: input.templateId,
  });
  if (input.templateId && !template) throw notFound('Template');
  const subject = input.subject ?? template?.subject;
  const body = input.body ?? template?.body;
  if (subject === undefined || body === undefined) {
    throw invalid(
      [!subject && 'subject', !body && 'body']
        .filter((f): f is string => Boolean(f))
        .map((field) => ({
          field,
          message: 'Required when no template is given',
          code: 'required',
        })),
    );
  }
  const problems = [
    ...(input.subject ? templateProblems(input.subject, 'subject') : []),
    ...(input.body ? templateProblems(input.body, 'body') : []),
  ];
  if (problems.length > 0) throw invalid(problems);

  const fromAddress = input.from
    ? asAddress(input.from)
    : template
      ? { email: template.from_address, name: template.from_name ?? undefined }
      : undefined;
  if (!fromAddress)
    throw invalid([
      { field: 'from', message: 'Required unless the template has a sender', code: 'required' },
    ]);
  const fromName =
    fromAddress.name ??
    input.senderName ??
    (input.from ? undefined : (template?.from_name ?? undefined));
  const domain = matchSenderDomain(verifiedDomains, fromAddress.email);
  if (!domain) throw unverifiedSender(fromAddress.email);

  const headers = input.headers ?? {};
  const reserved = Object.keys(headers).filter((h) => RESERVED_HEADERS.has(h.toLowerCase()));
  if (reserved.length > 0) {
    throw invalid(
      reserved.map((h) => ({
        field: `headers.${h}`,
        message: `${h} is set by the service`,
        code: 'reserved_header',
      })),
    );
  }

  const attachments = input.attachments ?? [];
  const attachmentBytes = attachments.reduce((sum, a) => sum + base64Bytes(a.content), 0);
  if (attachmentBytes > ATTACHMENT_BYTES_MAX) {
    throw invalid([
      {
        field: 'attachments',
        message: `Attachments total ${attachmentBytes} bytes; the limit is ${ATTACHMENT_BYTES_MAX}`,
        code: 'too_big',
      },
    ]);
  }
  // Base64 grows content by a third on the wire; the limit is on the message as sent.
  const messageBytes =
    Buffer.byteLength(subject) +
    Buffer.byteLength(body) * 2 +
    Math.ceil((attachmentBytes * 4) / 3) +
    Object.entries(headers).reduce((sum, [k, v]) => sum + k.length + v.length + 4, 0);
  if (messageBytes > MESSAGE_BYTES_MAX) {
    throw invalid([
      {
        field: '(root)',
        message: `The message would be ${messageBytes} bytes; the limit is ${MESSAGE_BYTES_MAX}`,
        code: 'too_big',
      },
    ]);
  }

  const type: TemplateType = template?.type ?? 'TRANSACTIONAL';
  const recipients = (Array.isArray(input.to) ? input.to : [input.to]).map(asAddress);
  const sorted = sortData(input.data);
  const replyTo = input.replyTo ?? template?.reply_to ?? null;

  const write = (outer: Sql) =>
    withIdempotencyKey(
      { sql: outer, projectId, key: idempotencyKey, scope: 'send' },
      async (tx) => {
        const attachmentIds: string[] = [];
        for (const a of attachments) {
          const id = newId();
          attachmentIds.push(id);
          await tx.query(
            `INSERT INTO attachments (id, project_id, filename, content_type, content_id, disposition, content)
           VALUES ($1, $2, $3, $4, $5, $6, decode($7, 'base64'))`,
            [
              id,
              projectId,
              a.filename,
              a.contentType,
              a.contentId ?? null,
              a.disposition,
              a.content.replace(/\s+/g, ''),
            ],
          );
        }
        const out: SendResult['emails'] = [];
        // One after another: each recipient's own upsert and email row (spec rule 2).
        for (const recipient of recipients) {
          const email = normaliseEmail(recipient.email);
          const queued = await upsertContactAndQueueEmail(tx, {
            projectId,
            defaultSubscribed: false,
            source: 'send',
            contact: {
              id: newId(),
              email,
              subscribed: input.subscribed ?? null,
              set: sorted.set,
              unset: sorted.unset,
              flipEventId: newId(),
            },
            email: {
              id: newId(),
              templateId: template?.id ?? null,
              domainId: domain.id,
              toName: recipient.name ?? null,
              fromAddress: fromAddress.email,
              fromName: fromName ?? null,
              replyTo,
              subject,
              body,
              type,
              headers,
              variables: eventData(sorted),
              attachmentIds,
              deliveryQueue,
            },
          });
          out.push({
            contact: { id: queued.contact_id, email: queued.email },
            email: queued.email_id,
            status: queued.status,
          });
        }
        return out;
      },
    );
  // All recipients commit together (with the key claim and attachments) or not at all; one
  // recipient with nothing else to write is a single statement, atomic by itself.
  const single = recipients.length === 1 && attachments.length === 0 && !idempotencyKey;
  const written = single ? await write(sql) : await sql.transaction(write);
  if (written.some((w) => w.status === 'QUEUED')) queueNotifier.queued(deliveryQueue);

  return {
    emails: written,
    timestamp: new Date().toISOString(),
  };
}
