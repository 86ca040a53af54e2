import { DomainError } from '../../domain/shared/errors.js';
import type { AuthInfo } from '../http/route.js';

export function sessionUserId(auth: AuthInfo): string {
  if (auth.principal?.type !== 'session') throw new DomainError('UNAUTHORIZED', 'Log in first');
  return auth.principal.userId;
}

export function projectIdOf(auth: AuthInfo): string {
  if (!auth.projectId) throw new DomainError('UNAUTHORIZED', 'No project for this request');
  return auth.projectId;
}
