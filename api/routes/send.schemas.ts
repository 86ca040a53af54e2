import { z } from 'zod';
import { ATTACHMENT_DISPOSITIONS } from '../../domain/sending/attachment-disposition.pure.js';
import { ACCEPTED_EMAIL_STATUSES } from '../../domain/sending/email-status.pure.js';
import {
  ATTACHMENTS_MAX,
  HEADER_VALUE_MAX,
  RECIPIENTS_MAX,
  SUBJECT_MAX,
} from '../../domain/sending/send-limits.pure.js';
import { noLineBreaks } from '../../domain/sending/single-line-text.js';
import { trackingSwitches } from '../../domain/tracking/tracking-input.pure.js';
import { contactData } from './contacts.schemas.js';

const address = z.union([
  z.email().max(254),
  z.object({ name: noLineBreaks(200).optional(), email: z.email().max(254) }),
]);

// RFC 5322 field names: printable ASCII except the colon.
const headerName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[!-9;-~]+$/, 'Header names are printable ASCII without spaces, colons or line breaks');

const attachment = z.object({
  filename: noLineBreaks(255).pipe(z.string().min(1)),
  content: z.base64(),
  contentType: noLineBreaks(255).default('application/octet-stream'),
  contentId: noLineBreaks(255).optional(),
  disposition: z.enum(ATTACHMENT_DISPOSITIONS).default('attachment'),
});

export const sendBody = z.object({
  to: z.union([address, z.array(address).min(1).max(RECIPIENTS_MAX)]),
  subject: noLineBreaks(SUBJECT_MAX).pipe(z.string().min(1)).optional(),
  body: z.string().min(1).optional(),
  template: z.uuid().optional(),
  templateId: z.uuid().optional(),
  from: address.optional(),
  name: noLineBreaks(200).optional(),
  reply: z.email().max(254).optional(),
  replyTo: z.email().max(254).optional(),
  headers: z.record(headerName, noLineBreaks(HEADER_VALUE_MAX)).optional(),
  attachments: z.array(attachment).max(ATTACHMENTS_MAX).optional(),
  subscribed: z.boolean().optional(),
  data: contactData.optional(),
  tracking: trackingSwitches.optional().meta({
    description:
      "Open and click tracking of this send's emails; a kind left out follows the template's, then the project's setting",
  }),
});

export type SendBody = z.output<typeof sendBody>;

export const sendResult = z.object({
  success: z.literal(true),
  data: z.object({
    emails: z.array(
      z.object({
        contact: z.object({ id: z.uuid(), email: z.string() }),
        email: z.uuid(),
        status: z.enum(ACCEPTED_EMAIL_STATUSES),
      }),
    ),
    timestamp: z.string(),
  }),
});
