// The limits of POST /v1/send (spec "Limits"), in one place.
export const SUBJECT_MAX = 998;
export const HEADER_VALUE_MAX = 998;
export const ATTACHMENTS_MAX = 10;
export const ATTACHMENT_BYTES_MAX = 10 * 1024 * 1024;
export const MESSAGE_BYTES_MAX = 40 * 1024 * 1024;
export const RECIPIENTS_MAX = 50;

// Headers the service writes itself; a custom header may not replace them.
export const RESERVED_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
  'reply-to',
  'sender',
  'return-path',
  'list-unsubscribe',
  'list-unsubscribe-post',
]);

/** Decoded size of a base64 string, without decoding it. */
export function base64Bytes(value: string): number {
  const clean = value.replace(/\s+/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.floor((clean.length * 3) / 4) - padding;
}
