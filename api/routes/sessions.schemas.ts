import { z } from 'zod';
import { emailField, passwordField } from './auth.schemas.js';

export const sessionView = z.object({
  id: z.uuid(),
  createdAt: z.string(),
  lastSeenAt: z.string(),
  userAgent: z.string().nullable(),
  /** The session of the request that lists them. */
  current: z.boolean(),
});
export const sessionList = z.array(sessionView);
export const sessionIdParams = z.object({ id: z.uuid() });
export const revokedResponse = z.object({ revoked: z.number().int() });

export const changePasswordBody = z.object({
  currentPassword: z.string().min(1).max(256),
  newPassword: passwordField,
});
export const changeEmailBody = z.object({
  email: emailField,
  currentPassword: z.string().min(1).max(256),
});
