import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { User } from '../../db/entities/index.js';
import { DomainError, conflict } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Em, SystemEmailRequest, WorkflowEngine } from '../shared/ports.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { consumeAuthToken } from './auth-tokens.js';
import type { Sql } from '../../db/sql/sql.js';
import { deleteUserSessions } from '../../db/sql/sessions.sql.js';
import {
  accountEmailBuckets,
  assertUnderLimits,
  forgetAttempts,
  loginBuckets,
  recordAttempt,
  signupBuckets,
  takeAttempt,
  type ClientInfo,
} from './auth-throttle.service.js';
import { dummyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { startSession } from './sessions.service.js';

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

/** What a request brings to the account routes besides its body. */
export interface RequestScope {
  em: Em;
  sql: Sql;
  client: ClientInfo;
}

const sessionOf = async (
  { sql, client }: RequestScope,
  user: User,
  sessionSecret: string,
): Promise<Session> => ({
  user,
  sessionToken: await startSession({ sql, sessionSecret, userId: user.id, client }),
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

/** Creates the account, starts its verification email, and logs it in. Throttled per address and IP. */
export async function signUp({
  engine,
  sessionSecret,
  signupsDisabled,
  email,
  password,
  name,
  ...scope
}: AccountSettings &
  RequestScope & {
    email: string;
    password: string;
    name?: string;
  }): Promise<Session> {
  if (signupsDisabled) {
    throw new DomainError('SIGNUPS_DISABLED', 'Sign-ups are disabled on this installation', {
      suggestion: 'Ask an administrator of this installation to invite you to a project.',
    });
  }
  const { em, sql, client } = scope;
  const address = normaliseEmail(email);
  await takeAttempt(sql, signupBuckets(address, client.ip));
  const user = em.create(User, {
    email: address,
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
  return sessionOf(scope, user, sessionSecret);
}

/**
 * Failed logins are throttled per account (known or not, so a refusal reveals nothing) and per
 * client address; a refused attempt is not checked, and a success clears the account's failures.
 */
export async function logIn({
  sessionSecret,
  email,
  password,
  ...scope
}: Pick<AccountSettings, 'sessionSecret'> &
  RequestScope & {
    email: string;
    password: string;
  }): Promise<Session> {
  const { em, sql, client } = scope;
  const address = normaliseEmail(email);
  const buckets = loginBuckets(address, client.ip);
  await assertUnderLimits(sql, buckets);
  const user = await em.findOne(User, { email: address });
  const valid = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), password);
  if (!user || !valid) {
    await recordAttempt(sql, buckets);
    throw new DomainError('UNAUTHORIZED', 'Invalid email or password');
  }
  await forgetAttempts(sql, buckets[0]);
  return sessionOf(scope, user, sessionSecret);
}

type AccountMailRequest = RequestScope & { engine: WorkflowEngine; email: string };

/**
 * Mails the address's account a link of `kind` when `wanted` says so. Throttled per address and
 * IP, and the answer is the same whether or not the address has an account: it reveals nothing.
 */
async function mailAccountLink({
  em,
  sql,
  client,
  engine,
  email,
  kind,
  wanted,
}: AccountMailRequest & {
  kind: SystemEmailRequest['kind'];
  wanted: (user: User) => boolean;
}): Promise<void> {
  const address = normaliseEmail(email);
  await takeAttempt(sql, accountEmailBuckets(address, client.ip));
  const user = await em.findOne(User, { email: address });
  if (!user || !wanted(user)) return;
  await engine.startSystemEmail({ requestId: newId(), kind, userId: user.id });
}

export const requestEmailVerification = (request: AccountMailRequest): Promise<void> =>
  mailAccountLink({ ...request, kind: 'VERIFY_EMAIL', wanted: (user) => !user.emailVerifiedAt });

export const requestPasswordReset = (request: AccountMailRequest): Promise<void> =>
  mailAccountLink({ ...request, kind: 'RESET_PASSWORD', wanted: () => true });

export async function verifyEmail({ em, token }: { em: Em; token: string }): Promise<User> {
  const userId = await consumeAuthToken({ em, token, purpose: 'VERIFY_EMAIL' });
  const user = await em.findOneOrFail(User, { id: userId });
  user.emailVerifiedAt ??= new Date(); // the first verification's time is kept
  await em.flush();
  return user;
}

export async function resetPassword({
  em,
  sql,
  token,
  password,
}: {
  em: Em;
  sql: Sql;
  token: string;
  password: string;
}): Promise<void> {
  const userId = await consumeAuthToken({ em, token, purpose: 'RESET_PASSWORD' });
  const user = await em.findOneOrFail(User, { id: userId });
  user.passwordHash = await hashPassword(password);
  // A reset also proves the address, and ends every session (whoever knew the old password).
  user.emailVerifiedAt ??= new Date();
  await em.flush();
  await deleteUserSessions(sql, { userId, keepSessionId: null });
}

export async function getUser({ em, userId }: { em: Em; userId: string }): Promise<User> {
  const user = await em.findOne(User, { id: userId });
  if (!user) throw new DomainError('UNAUTHORIZED', 'Log in first');
  return user;
}
