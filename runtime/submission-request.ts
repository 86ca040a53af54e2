import { storableInput } from '../api/http/storable-input.js';
import { parseOrThrow } from '../api/http/validation.js';
import { sendBody } from '../api/routes/send.schemas.js';
import type { SendInput } from '../domain/sending/send.service.js';
import { readSubmittedMessage } from '../domain/submission/submitted-message.js';

/**
 * A message submitted over SMTP as POST /v1/send input: its recipients are the envelope's (RCPT
 * TO, so Bcc included), each with the display name the message's To or Cc gives it, and the rest
 * is read from the message. It passes the checks a /v1/send body passes (text PostgreSQL can
 * store, then the body schema), so a refusal names the same field with the same words.
 */
export async function submissionInput({
  raw,
  recipients,
}: {
  raw: Buffer;
  recipients: string[];
}): Promise<SendInput> {
  const message = await readSubmittedMessage(raw);
  const request = {
    to: recipients.map((email) => {
      const name = message.displayNames.get(email.toLowerCase());
      return name ? { name, email } : email;
    }),
    subject: message.subject,
    body: message.body,
    from: message.from,
    replyTo: message.replyTo,
    headers: message.headers,
    attachments: message.attachments,
  };
  const { body } = storableInput({ params: {}, query: {}, body: request }, 'refuse');
  const parsed = parseOrThrow(sendBody, body);
  return {
    to: parsed.to,
    subject: parsed.subject,
    body: parsed.body,
    from: parsed.from,
    replyTo: parsed.replyTo,
    headers: parsed.headers,
    attachments: parsed.attachments,
    messageId: message.messageId,
  };
}
