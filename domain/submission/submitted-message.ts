import PostalMime, { type Address, type Attachment, type Email } from 'postal-mime';
import type { AttachmentDisposition } from '../sending/attachment-disposition.pure.js';
import { HEADER_VALUE_MAX, RESERVED_HEADERS } from '../sending/send-limits.pure.js';
import { isMessageId } from '../sending/send-request.pure.js';
import { validationError } from '../shared/errors.js';
import { literalTemplate } from '../templates/literal-template.pure.js';

/**
 * A message submitted over SMTP as the fields of a POST /v1/send body (before that body's
 * validation), plus what only a message has: its own Message-ID and the display names of the
 * addresses it shows.
 */
export interface SubmittedMessage {
  subject?: string;
  /** HTML, as a template source that renders to the message's own content. */
  body?: string;
  from?: { name?: string; email: string };
  replyTo?: string;
  headers: Record<string, string>;
  attachments: {
    filename: string;
    /** Base64. */
    content: string;
    contentType: string;
    contentId?: string;
    disposition: AttachmentDisposition;
  }[];
  /** The message's Message-ID when it has a well-formed one (`<left@right>`). */
  messageId?: string;
  /** The display names of the To and Cc addresses, by lower-cased address. */
  displayNames: Map<string, string>;
}

// Headers that describe the message's MIME structure or its transport: the message is built
// again from its parts, so they would be wrong on it (the reserved ones are the service's own).
const STRUCTURAL_HEADER = /^(content-|received$|x-received$|delivered-to$|x-original-to$)/;

/** Text as the HTML body /v1/send takes: escaped, each line break kept as `<br>`. */
export function textAsHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\r?\n/g, '<br>\n');
}

const mailboxes = (addresses: Address[] | undefined) =>
  (addresses ?? []).flatMap((a) => (a.group ? a.group : [a]));

/** The message's own headers that a /v1/send caller could set: one of each, in their order. */
function customHeaders(email: Email): Record<string, string> {
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const { key, originalKey, value } of email.headers) {
    if (seen.has(key) || RESERVED_HEADERS.has(key) || STRUCTURAL_HEADER.test(key)) continue;
    // A value /v1/send could not take is left off rather than refusing the message for it.
    if (value.length > HEADER_VALUE_MAX || /[\r\n]/.test(value)) continue;
    seen.add(key);
    headers[originalKey] = value.trim();
  }
  return headers;
}

function attachmentOf(attachment: Attachment, index: number): SubmittedMessage['attachments'][0] {
  const contentId = attachment.contentId?.replace(/^<|>$/g, '') || undefined;
  const inline = attachment.disposition === 'inline' || Boolean(attachment.related && contentId);
  return {
    filename: attachment.filename || `attachment-${index + 1}`,
    content: attachment.content as string,
    contentType: attachment.mimeType || 'application/octet-stream',
    contentId,
    disposition: inline ? 'inline' : 'attachment',
  };
}

/**
 * Reads a submitted message: subject, HTML (or its text part as HTML when it has none), From,
 * the first Reply-To, custom headers, attachments (inline ones with their Content-ID) and its
 * Message-ID. Subject and body are final content, so they are made template sources that render
 * to themselves (see literalTemplate). A message that is not MIME is a 422-like refusal.
 */
export async function readSubmittedMessage(raw: Buffer): Promise<SubmittedMessage> {
  let email: Email;
  try {
    email = await PostalMime.parse(raw, {
      attachmentEncoding: 'base64',
      // An attached message stays an attachment; it is not part of this one's body.
      forceRfc822Attachments: true,
    });
  } catch (error) {
    throw validationError({
      field: '(root)',
      message: `The message could not be read: ${error instanceof Error ? error.message : String(error)}`,
      code: 'invalid_message',
    });
  }
  const [from] = mailboxes(email.from ? [email.from] : undefined);
  const [replyTo] = mailboxes(email.replyTo);
  const text = email.text?.trimEnd();
  const html = email.html?.trim() ? email.html : text ? textAsHtml(text) : undefined;
  const displayNames = new Map<string, string>();
  for (const m of [...mailboxes(email.to), ...mailboxes(email.cc)])
    if (m.name && m.address) displayNames.set(m.address.toLowerCase(), m.name);
  const messageId = email.messageId?.trim();
  return {
    subject: email.subject === undefined ? undefined : literalTemplate(email.subject),
    body: html === undefined ? undefined : literalTemplate(html),
    from: from?.address ? { email: from.address, name: from.name || undefined } : undefined,
    replyTo: replyTo?.address || undefined,
    headers: customHeaders(email),
    attachments: email.attachments.map(attachmentOf),
    // A malformed one is replaced by the email's own, as a server adds one to a message without.
    messageId: messageId && isMessageId(messageId) ? messageId : undefined,
    displayNames,
  };
}
