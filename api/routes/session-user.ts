import { DomainError } from '../../domain/shared/errors.js';
import type { AuthInfo } from '../http/route.js';

export function sessionUserId(auth: AuthInfo): string {
  return sessionOf(auth).userId;
}

/** The session the request acts in (its user and its session row). */
export function sessionOf(auth: AuthInfo): { userId: string; sessionId: string } {
  if (auth.principal?.type !== 'session') throw new DomainError('UNAUTHORIZED', 'Log in first');
  return { userId: auth.principal.userId, sessionId: auth.principal.sessionId };
}

export function projectIdOf(auth: AuthInfo): string {
  if (!auth.projectId) throw new DomainError('UNAUTHORIZED', 'No project for this request');
  return auth.projectId;
}
