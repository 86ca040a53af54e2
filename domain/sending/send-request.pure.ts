import { eventData, normaliseEmail, sortData } from '../contacts/data-rules.pure.js';
import { matchSenderDomain, unverifiedSenderProblem } from '../domains/sender-domain.pure.js';
import type { FieldError } from '../shared/errors.js';
import type { TrackingSetting } from '../tracking/tracking-choice.pure.js';
import type { AttachmentDisposition } from './attachment-disposition.pure.js';
import type { EmailType } from './email-type.pure.js';
import {
  ATTACHMENT_BYTES_MAX,
  MESSAGE_BYTES_MAX,
  RESERVED_HEADERS,
  base64Bytes,
} from './send-limits.pure.js';

export type Address = string | { name?: string; email: string };

export interface SendAttachment {
  filename: string;
  /** Base64. */
  content: string;
  contentType: string;
  contentId?: string;
  disposition: AttachmentDisposition;
}

/** POST /v1/send as the domain reads it (the transport's aliases already resolved). */
export interface SendInput {
  to: Address | Address[];
  subject?: string;
  body?: string;
  templateId?: string;
  from?: Address;
  senderName?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  attachments?: SendAttachment[];
  subscribed?: boolean;
  data?: Record<string, unknown>;
  /** Open and click tracking of this send; a kind left out goes to the template, then the project. */
  tracking?: TrackingSetting;
  /** The Message-ID the emails keep instead of their own (a message submitted over SMTP). */
  messageId?: string;
}

/** The header an email's own Message-ID travels in to its delivery (see composeMessage). */
export const KEPT_MESSAGE_ID_HEADER = 'Message-ID';

/** A Message-ID as RFC 5322 writes one (`<left@right>`), of a length any server keeps. */
export const isMessageId = (value: string): boolean =>
  value.length <= 250 && /^<[^<>\s@]+@[^<>\s@]+>$/.test(value);

/** The template a send names, as far as sending reads it. */
export interface SendTemplate {
  id: string;
  type: EmailType;
  subject: string;
  body: string;
  fromAddress: string;
  fromName: string | null;
  replyTo: string | null;
}

/** What to write for every recipient of an accepted send: its content, as a template's. */
export interface SendPlan extends Omit<SendTemplate, 'id'> {
  templateId: string | null;
  domainId: string;
  headers: Record<string, string>;
  attachments: SendAttachment[];
  /** In request order, addresses normalised (spec rule 2: each on its own). */
  recipients: { email: string; name: string | null }[];
  /** The data rules applied to `data`: what each recipient's contact keeps and loses. */
  contactData: { set: Record<string, unknown>; unset: string[] };
  /** Template variables of this send on top of each contact's own data. */
  variables: Record<string, unknown>;
  subscribed: boolean | null;
  tracking: TrackingSetting;
}

/** Finds what is wrong with a template source, for `field` (a syntax or safety problem). */
export type SyntaxCheck = (source: string, field: string) => FieldError[];

const asAddress = (a: Address): { name?: string; email: string } =>
  typeof a === 'string' ? { email: a } : a;

const required = (field: string, message: string): FieldError => ({
  field,
  message,
  code: 'required',
});

/**
 * Everything about a send that can be refused, checked before anything is written: content
 * (a template, or subject and body), template syntax, the sender on a verified domain, headers
 * the service sets itself, the attachments' and the whole message's size. Answers the first
 * problems found, or the plan: explicit request fields override the template's.
 */
export function planSend({
  input,
  template,
  verifiedDomains,
  syntaxProblems,
}: {
  input: SendInput;
  template: SendTemplate | null;
  verifiedDomains: { id: string; domain: string }[];
  syntaxProblems: SyntaxCheck;
}): { plan: SendPlan } | { errors: FieldError[] } {
  const subject = input.subject ?? template?.subject;
  const body = input.body ?? template?.body;
  if (subject === undefined || body === undefined) {
    return {
      errors: [
        ...(subject ? [] : [required('subject', 'Required when no template is given')]),
        ...(body ? [] : [required('body', 'Required when no template is given')]),
      ],
    };
  }
  const problems = [
    ...(input.subject ? syntaxProblems(input.subject, 'subject') : []),
    ...(input.body ? syntaxProblems(input.body, 'body') : []),
  ];
  if (problems.length > 0) return { errors: problems };

  const from = input.from
    ? asAddress(input.from)
    : template
      ? { email: template.fromAddress, name: template.fromName ?? undefined }
      : undefined;
  if (!from) return { errors: [required('from', 'Required unless the template has a sender')] };
  const fromName =
    from.name ?? input.senderName ?? (input.from ? undefined : (template?.fromName ?? undefined));
  const domain = matchSenderDomain(verifiedDomains, from.email);
  if (!domain) return { errors: [unverifiedSenderProblem(from.email)] };

  const headers = input.headers ?? {};
  const reserved = Object.keys(headers).filter((h) => RESERVED_HEADERS.has(h.toLowerCase()));
  if (reserved.length > 0) {
    return {
      errors: reserved.map((h) => ({
        field: `headers.${h}`,
        message: `${h} is set by the service`,
        code: 'reserved_header',
      })),
    };
  }

  if (input.messageId !== undefined && !isMessageId(input.messageId)) {
    return {
      errors: [{ field: 'messageId', message: 'Not a Message-ID (<left@right>)', code: 'invalid' }],
    };
  }

  const attachments = input.attachments ?? [];
  const attachmentBytes = attachments.reduce((sum, a) => sum + base64Bytes(a.content), 0);
  if (attachmentBytes > ATTACHMENT_BYTES_MAX) {
    return {
      errors: [
        {
          field: 'attachments',
          message: `Attachments total ${attachmentBytes} bytes; the limit is ${ATTACHMENT_BYTES_MAX}`,
          code: 'too_big',
        },
      ],
    };
  }
  // Base64 grows content by a third on the wire; the limit is on the message as sent.
  const messageBytes =
    Buffer.byteLength(subject) +
    Buffer.byteLength(body) * 2 +
    Math.ceil((attachmentBytes * 4) / 3) +
    Object.entries(headers).reduce((sum, [k, v]) => sum + k.length + v.length + 4, 0);
  if (messageBytes > MESSAGE_BYTES_MAX) {
    return {
      errors: [
        {
          field: '(root)',
          message: `The message would be ${messageBytes} bytes; the limit is ${MESSAGE_BYTES_MAX}`,
          code: 'too_big',
        },
      ],
    };
  }

  const sorted = sortData(input.data);
  return {
    plan: {
      templateId: template?.id ?? null,
      domainId: domain.id,
      type: template?.type ?? 'TRANSACTIONAL',
      subject,
      body,
      fromAddress: from.email,
      fromName: fromName ?? null,
      replyTo: input.replyTo ?? template?.replyTo ?? null,
      headers:
        input.messageId === undefined
          ? headers
          : { ...headers, [KEPT_MESSAGE_ID_HEADER]: input.messageId },
      attachments,
      recipients: (Array.isArray(input.to) ? input.to : [input.to]).map((to) => {
        const address = asAddress(to);
        return { email: normaliseEmail(address.email), name: address.name ?? null };
      }),
      contactData: { set: sorted.set, unset: sorted.unset },
      variables: eventData(sorted),
      subscribed: input.subscribed ?? null,
      tracking: input.tracking ?? {},
    },
  };
}
