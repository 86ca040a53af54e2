import { Template } from '../../db/entities/index.js';
import { upsertContacts } from '../../db/sql/contact-upsert.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { eventData, normaliseEmail, sortData } from '../contacts/data-rules.pure.js';
import { requireVerifiedSender } from '../domains/domains.service.js';
import { withIdempotencyKey } from '../idempotency/idempotency.service.js';
import { dispatchEmails } from './dispatch.service.js';
import { DomainError, notFound, type FieldError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Em, WorkflowEngine } from '../shared/ports.js';
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

const invalid = (errors: FieldError[]): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Validation failed', { errors });

const asAddress = (a: Address): { name?: string; email: string } =>
  typeof a === 'string' ? { email: a } : a;

/**
 * Everything that can be refused is refused before anything is written: content, sender,
 * headers, attachment and message sizes. Then, in one transaction (claiming the Idempotency-Key
 * when given), each recipient in turn is upserted as a contact and gets an email row, QUEUED or
 * SUPPRESSED; after commit each queued email starts its durable `send-email` workflow.
 */
export async function sendEmails({
  em,
  sql,
  engine,
  projectId,
  input,
  idempotencyKey,
}: {
  em: Em;
  sql: Sql;
  engine: WorkflowEngine;
  projectId: string;
  input: SendInput;
  idempotencyKey?: string;
}): Promise<SendResult> {
  let template: Template | null = null;
  if (input.templateId) {
    template = await em.findOne(Template, { id: input.templateId, project: projectId });
    if (!template) throw notFound('Template');
  }
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
      ? { email: template.from, name: template.fromName ?? undefined }
      : undefined;
  if (!fromAddress)
    throw invalid([
      { field: 'from', message: 'Required unless the template has a sender', code: 'required' },
    ]);
  const fromName =
    fromAddress.name ??
    input.senderName ??
    (input.from ? undefined : (template?.fromName ?? undefined));
  const domain = await requireVerifiedSender({ em, projectId, from: fromAddress.email });

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
  const replyTo = input.replyTo ?? template?.replyTo ?? null;

  // All recipients commit together (with the key claim, when there is one) or not at all.
  const written = await sql.transaction((outer) =>
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
        const out: (SendResult['emails'][number] & { queued: boolean })[] = [];
        // One after another: each recipient's own upsert and email row (spec rule 2).
        for (const recipient of recipients) {
          const email = normaliseEmail(recipient.email);
          const [contact] = await upsertContacts(tx, {
            projectId,
            defaultSubscribed: false,
            source: 'send',
            rows: [
              {
                id: newId(),
                email,
                subscribed: input.subscribed ?? null,
                set: sorted.set,
                unset: sorted.unset,
                flipEventId: newId(),
              },
            ],
          });
          if (!contact) throw new Error('The contact upsert returned no row');
          const [suppression] = await tx.query<{ reason: string }>(
            'SELECT reason FROM suppressions WHERE project_id = $1 AND email = $2',
            [projectId, email],
          );
          const reason = suppression
            ? suppression.reason
            : type === 'MARKETING' && !contact.subscribed
              ? 'unsubscribed'
              : null;
          const emailId = newId();
          const variables = {
            ...contact.data,
            ...eventData(sorted),
            email,
            id: contact.id,
            svc_id: contact.id,
            svc_email: email,
          };
          await tx.query(
            `INSERT INTO emails (id, project_id, contact_id, template_id, domain_id, to_address, to_name, from_address, from_name,
                             reply_to, subject, body, type, status, headers, variables, attachment_ids, suppression_reason, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, now())`,
            [
              emailId,
              projectId,
              contact.id,
              template?.id ?? null,
              domain.id,
              email,
              recipient.name ?? null,
              fromAddress.email,
              fromName ?? null,
              replyTo,
              subject,
              body,
              type,
              reason ? 'SUPPRESSED' : 'QUEUED',
              JSON.stringify(headers),
              JSON.stringify(variables),
              attachmentIds,
              reason,
            ],
          );
          out.push({
            contact: { id: contact.id, email },
            email: emailId,
            status: reason ? 'SUPPRESSED' : 'QUEUED',
            queued: !reason,
          });
        }
        return out;
      },
    ),
  );

  // The rows are committed: the emails are durably queued. Their workflows start now; one whose
  // start fails (Temporal unreachable) stays queued for the email-dispatch schedule.
  const queued = written.filter((w) => w.queued).map((w) => ({ emailId: w.email, projectId }));
  await dispatchEmails({ sql, engine, emails: queued });
  return {
    emails: written.map(({ queued: _q, ...item }) => item),
    timestamp: new Date().toISOString(),
  };
}
