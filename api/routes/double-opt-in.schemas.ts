import { z } from 'zod';
import { CONFIRMATION_LINK_DAYS } from '../../domain/contacts/double-opt-in-settings.pure.js';
import { contactData } from './contacts.schemas.js';

export const doubleOptInView = z.object({
  enabled: z.boolean(),
  templateId: z
    .uuid()
    .nullable()
    .describe(
      'The confirmation email; null: the built-in one, sent from no-reply@ the oldest verified domain',
    ),
  linkValidDays: z
    .number()
    .int()
    .describe(`How long a confirmation link works (${CONFIRMATION_LINK_DAYS})`),
});

export const doubleOptInBody = z.strictObject({
  enabled: z.boolean().optional(),
  templateId: z
    .uuid()
    .nullable()
    .optional()
    .describe(
      'A template of the project whose body links {{ confirmUrl }}; null: the built-in one',
    ),
});

export const subscribeBody = z.object({
  email: z.email().max(254),
  data: contactData.optional(),
});

export const subscribeResult = z.object({
  success: z.literal(true),
  data: z.object({
    contact: z.uuid(),
    confirmationRequired: z
      .boolean()
      .describe('The project asks for a confirmation by email (double opt-in)'),
    timestamp: z.string(),
  }),
});

export const confirmationTokenParams = z.object({ token: z.string().min(10).max(4096) });
