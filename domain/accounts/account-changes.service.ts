import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { AuthToken } from '../../db/entities/auth-token.entity.js';
import { User } from '../../db/entities/index.js';
import { deleteUserSessions } from '../../db/sql/sessions.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { conflict, DomainError, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Em, WorkflowEngine } from '../shared/ports.js';
import { assertUnderLimits, forgetAttempts, recordAttempt } from './auth-throttle.service.js';
import type { AttemptBucket } from './auth-limits.pure.js';
import { hashPassword, verifyPassword } from './passwords.js';
import type { LiveSession } from './sessions.service.js';

interface ChangeScope {
  em: Em;
  sql: Sql;
  session: LiveSession;
}

/**
 * The user of the session, once their current password is proven. Wrong ones count as failed
 * logins of the account, so a stolen session cannot be used to guess the password.
 */
async function provenUser({ em, sql, session }: ChangeScope, currentPassword: string) {
  const user = await em.findOne(User, { id: session.userId });
  if (!user) throw new DomainError('UNAUTHORIZED', 'Log in first');
  const bucket: AttemptBucket = { limit: 'loginFailuresPerAccount', subject: user.email };
  await assertUnderLimits(sql, [bucket]);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    await recordAttempt(sql, [bucket]);
    throw validationError({
      field: 'currentPassword',
      message: 'This is not your current password',
      code: 'invalid',
    });
  }
  await forgetAttempts(sql, bucket);
  return user;
}

/** Sets a new password and ends every other session of the user (this one stays). */
export async function changePassword({
  currentPassword,
  newPassword,
  ...scope
}: ChangeScope & { currentPassword: string; newPassword: string }): Promise<void> {
  const user = await provenUser(scope, currentPassword);
  user.passwordHash = await hashPassword(newPassword);
  await scope.em.flush();
  await deleteUserSessions(scope.sql, {
    userId: user.id,
    keepSessionId: scope.session.sessionId,
  });
}

/**
 * Moves the account to a new address, unverified until its link is used; links sent to the old
 * address stop working, and every other session of the user ends (this one stays).
 */
export async function changeEmail({
  engine,
  email,
  currentPassword,
  ...scope
}: ChangeScope & {
  engine: WorkflowEngine;
  email: string;
  currentPassword: string;
}): Promise<User> {
  const user = await provenUser(scope, currentPassword);
  const address = normaliseEmail(email);
  if (address === user.email) return user;
  user.email = address;
  user.emailVerifiedAt = null;
  try {
    await scope.em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict('Another account has this email', 'Choose another address.');
    }
    throw error;
  }
  await scope.em.nativeUpdate(AuthToken, { user: user.id, usedAt: null }, { usedAt: new Date() });
  await deleteUserSessions(scope.sql, {
    userId: user.id,
    keepSessionId: scope.session.sessionId,
  });
  await engine.startSystemEmail({ requestId: newId(), kind: 'VERIFY_EMAIL', userId: user.id });
  return user;
}
