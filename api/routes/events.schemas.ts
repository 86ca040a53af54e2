import { z } from 'zod';
import { cursorQuery } from '../http/pagination.js';
import { contactData } from './contacts.schemas.js';

export const trackBody = z.object({
  email: z.email().max(254),
  event: z.string().trim().min(1).max(255),
  subscribed: z.boolean().optional(),
  data: contactData.optional(),
});

export const trackResult = z.object({
  success: z.literal(true),
  data: z.object({ contact: z.uuid(), event: z.uuid(), timestamp: z.string() }),
});

export const listEventsQuery = cursorQuery.extend({
  event: z.string().trim().min(1).max(255).optional(),
});
export const eventNameParams = z.object({ eventName: z.string().min(1).max(255) });
export const contactIdParams = z.object({ contactId: z.uuid() });

export const eventView = z.object({
  id: z.uuid(),
  name: z.string(),
  contactId: z.uuid().nullable(),
  contactEmail: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});

export const eventNamesResult = z.object({
  names: z.array(z.object({ name: z.string(), count: z.number().int(), lastSeenAt: z.string() })),
});
