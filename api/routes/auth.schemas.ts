import { z } from 'zod';

export const emailField = z.email().max(254);
export const passwordField = z.string().min(8).max(256);

export const signupBody = z.object({
  email: emailField,
  password: passwordField,
  name: z.string().trim().min(1).max(200).optional(),
});

export const loginBody = z.object({ email: emailField, password: z.string().min(1).max(256) });
export const tokenBody = z.object({ token: z.string().min(10).max(200) });
export const emailBody = z.object({ email: emailField });
export const resetPasswordBody = z.object({
  token: z.string().min(10).max(200),
  password: passwordField,
});
export const tokenQuery = z.object({ token: z.string().max(200).optional() });

export const userView = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  emailVerified: z.boolean(),
  createdAt: z.string(),
});
export const okResponse = z.object({ success: z.literal(true) });
