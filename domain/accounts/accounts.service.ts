import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { User } from '../../db/entities/index.js';
import { DomainError, conflict } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Em, WorkflowEngine } from '../shared/ports.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { consumeAuthToken } from './auth-tokens.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { issueSessionToken, readSessionToken } from './sessions.js';

/** What accounts need from the installation: account emails, the session key, the sign-up switch. */
export interface AccountSettings {
  engine: WorkflowEngine;
  /** Signs session tokens (JWT_SECRET). */
  sessionSecret: string;
  signupsDisabled: boolean;
}

/** A logged-in user and the token of their new session (the cookie's value). */
export interface Session {
  user: User;
  sessionToken: string;
}

const sessionOf = (user: User, sessionSecret: string): Session => ({
  user,
  sessionToken: issueSessionToken({
    userId: user.id,
    sessionVersion: user.sessionVersion,
    secret: sessionSecret,
  }),
});

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

/** Creates the account, starts its verification email, and logs it in. */
export async function signUp({
  em,
  engine,
  sessionSecret,
  signupsDisabled,
  email,
  password,
  name,
}: AccountSettings & {
  em: Em;
  email: string;
  password: string;
  name?: string;
}): Promise<Session> {
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
  return sessionOf(user, sessionSecret);
}

export async function logIn({
  em,
  sessionSecret,
  email,
  password,
}: Pick<AccountSettings, 'sessionSecret'> & {
  em: Em;
  email: string;
  password: string;
}): Promise<Session> {
  const user = await em.findOne(User, { email: normaliseEmail(email) });
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !valid) throw new DomainError('UNAUTHORIZED', 'Invalid email or password');
  return sessionOf(user, sessionSecret);
}

/**
 * The user a session token belongs to: signed with our key, unexpired, and issued since the
 * user's last password reset. Undefined otherwise.
 */
export async function findSessionUser({
  em,
  sessionSecret,
  token,
}: Pick<AccountSettings, 'sessionSecret'> & {
  em: Em;
  token: string;
}): Promise<User | undefined> {
  const claims = readSessionToken({ token, secret: sessionSecret });
  if (!claims) return undefined;
  const user = await em.findOne(User, { id: claims.sub });
  return user && user.sessionVersion === claims.ver ? user : undefined;
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
  const user = await em.findOneOrFail(User, { id: userId });
  user.emailVerifiedAt ??= new Date(); // the first verification's time is kept
  await em.flush();
  return user;
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
  const user = await em.findOneOrFail(User, { id: userId });
  user.passwordHash = await hashPassword(password);
  // A reset also proves the address, and ends every session issued before it.
  user.sessionVersion += 1;
  user.emailVerifiedAt ??= new Date();
  await em.flush();
}

export async function getUser({ em, userId }: { em: Em; userId: string }): Promise<User> {
  const user = await em.findOne(User, { id: userId });
  if (!user) throw new DomainError('UNAUTHORIZED', 'Log in first');
  return user;
}
