import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { User } from '../../db/entities/index.js';
import { DomainError, conflict } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Em, WorkflowEngine } from '../shared/ports.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { consumeAuthToken } from './auth-tokens.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';

export interface UserView {
  id: string;
  email: string;
  name: string | null;
  emailVerified: boolean;
  createdAt: string;
}

export function toUserView(user: User): UserView {
  return {
    id: user.id,
    email: user.email,
    name: user.name ?? null,
    emailVerified: Boolean(user.emailVerifiedAt),
    createdAt: user.createdAt.toISOString(),
  };
}

export async function signUp({
  em,
  engine,
  signupsDisabled,
  email,
  password,
  name,
}: {
  em: Em;
  engine: WorkflowEngine;
  signupsDisabled: boolean;
  email: string;
  password: string;
  name?: string;
}): Promise<User> {
  if (signupsDisabled) {
    throw new DomainError('SIGNUPS_DISABLED', 'Sign-ups are disabled on this installation', {
      suggestion: 'Ask an administrator of this installation to invite you to a project.',
    });
  }
  const user = em.create(User, {
    email: normaliseEmail(email),
    passwordHash: await hashPassword(password),
    name: name ?? null,
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict('An account with this email already exists', 'Log in, or reset the password.');
    }
    throw error;
  }
  await engine.startSystemEmail({ requestId: newId(), kind: 'VERIFY_EMAIL', userId: user.id });
  return user;
}

export async function logIn({
  em,
  email,
  password,
}: {
  em: Em;
  email: string;
  password: string;
}): Promise<User> {
  const user = await em.findOne(User, { email: normaliseEmail(email) });
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !valid) throw new DomainError('UNAUTHORIZED', 'Invalid email or password');
  return user;
}

export async function findSessionUser({
  em,
  userId,
  sessionVersion,
}: {
  em: Em;
  userId: string;
  sessionVersion: number;
}): Promise<User | undefined> {
  const user = await em.findOne(User, { id: userId });
  return user && user.sessionVersion === sessionVersion ? user : undefined;
}

/** Answers the same whether or not the address has an account, so it reveals nothing. */
export async function requestEmailVerification({
  em,
  engine,
  email,
}: {
  em: Em;
  engine: WorkflowEngine;
  email: string;
}): Promise<void> {
  const user = await em.findOne(User, { email: normaliseEmail(email) });
  if (!user || user.emailVerifiedAt) return;
  await engine.startSystemEmail({ requestId: newId(), kind: 'VERIFY_EMAIL', userId: user.id });
}

export async function verifyEmail({ em, token }: { em: Em; token: string }): Promise<User> {
  const userId = await consumeAuthToken({ em, token, purpose: 'VERIFY_EMAIL' });
  await em
    .getConnection()
    .execute(
      'UPDATE users SET email_verified_at = coalesce(email_verified_at, now()) WHERE id = ?',
      [userId],
    );
  return em.findOneOrFail(User, { id: userId });
}

export async function requestPasswordReset({
  em,
  engine,
  email,
}: {
  em: Em;
  engine: WorkflowEngine;
  email: string;
}): Promise<void> {
  const user = await em.findOne(User, { email: normaliseEmail(email) });
  if (!user) return;
  await engine.startSystemEmail({ requestId: newId(), kind: 'RESET_PASSWORD', userId: user.id });
}

export async function resetPassword({
  em,
  token,
  password,
}: {
  em: Em;
  token: string;
  password: string;
}): Promise<void> {
  const userId = await consumeAuthToken({ em, token, purpose: 'RESET_PASSWORD' });
  // A reset also proves the address, and ends every session issued before it.
  await em.getConnection().execute(
    `UPDATE users SET password_hash = ?, session_version = session_version + 1,
         email_verified_at = coalesce(email_verified_at, now()), updated_at = now() WHERE id = ?`,
    [await hashPassword(password), userId],
  );
}

export async function getUser({ em, userId }: { em: Em; userId: string }): Promise<User> {
  const user = await em.findOne(User, { id: userId });
  if (!user) throw new DomainError('UNAUTHORIZED', 'Log in first');
  return user;
}
