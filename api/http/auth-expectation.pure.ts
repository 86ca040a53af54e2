import { roleAtLeast, type ProjectRole } from '../../domain/projects/roles.pure.js';
import { assertNever } from '../../domain/shared/assert-never.pure.js';
import type { AuthMode } from './route.js';

/**
 * The callers the auth matrix (test/api/auth-matrix.test.ts) sends to every route. "A" is the
 * project the route's ids belong to; the matrix sends the session ones with X-Project-Id (A, or
 * C for the disabled project) and, on `:id` routes, that project in the path.
 */
export const MATRIX_CREDENTIALS = [
  'none',
  'garbageKey',
  /** A's public key. */
  'publicKey',
  /** Another project's (B's) secret key, on A's ids. */
  'otherProjectKey',
  /** A user with no membership in A (B's owner). */
  'otherUserSession',
  'memberSession',
  'adminSession',
  'ownerSession',
  /** A MEMBER of a disabled project C, on C. */
  'disabledProjectSession',
] as const;
export type MatrixCredential = (typeof MATRIX_CREDENTIALS)[number];

/** Cells of one route whose answer is not the one its auth mode and role give, and why. */
export interface AuthMatrixException {
  expect: Partial<Record<MatrixCredential, MatrixAnswer>>;
  why: string;
}

/**
 * allowed: the caller gets past authentication and authorisation, to validation or the handler
 * (any answer but 401, 403 and 5xx; 404 for an id that does not exist is fine).
 * denied-401: no identity (missing, unknown or wrong kind of credential).
 * denied-403: a role too low (FORBIDDEN).
 * disabled-403: the project is disabled (PROJECT_DISABLED).
 * not-found-404: another project's or another user's thing: it does not exist for the caller.
 */
export const MATRIX_ANSWERS = [
  'allowed',
  'denied-401',
  'denied-403',
  'disabled-403',
  'not-found-404',
] as const;
export type MatrixAnswer = (typeof MATRIX_ANSWERS)[number];

export interface RouteAuth {
  path: string;
  auth: AuthMode;
  role?: ProjectRole;
  authMatrix?: AuthMatrixException;
}

/** The `:name` parameters of a route path. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] as string);
}

/** Whether the path names something beyond the project itself (a resource, or for `session`, something of the user's). */
export function namesResource(route: Pick<RouteAuth, 'path' | 'auth'>): boolean {
  const params = pathParams(route.path);
  return route.auth === 'projectPath' ? params.some((p) => p !== 'id') : params.length > 0;
}

const roleGate = (required: ProjectRole | undefined, held: ProjectRole): MatrixAnswer =>
  !required || roleAtLeast(held, required) ? 'allowed' : 'denied-403';

/** The answer a credential gets from a route, derived from its auth mode and least role. */
export function derivedAnswer(route: RouteAuth, credential: MatrixCredential): MatrixAnswer {
  if (route.auth === 'none') return 'allowed';
  const session = route.auth === 'session';
  const inProject = route.auth === 'project' || route.auth === 'track';
  switch (credential) {
    case 'none':
    case 'garbageKey':
      return 'denied-401';
    case 'publicKey':
      return route.auth === 'track' ? roleGate(route.role, 'ADMIN') : 'denied-401';
    case 'otherProjectKey':
      // Session routes take no key; a key acts as an ADMIN of its own project, where A's ids do
      // not exist; routes naming nothing of A answer B's own data.
      if (session) return 'denied-401';
      if (!inProject || namesResource(route)) return 'not-found-404';
      return roleGate(route.role, 'ADMIN');
    case 'otherUserSession':
      if (session) return namesResource(route) ? 'not-found-404' : 'allowed';
      return 'not-found-404';
    case 'memberSession':
      return session ? 'allowed' : roleGate(route.role, 'MEMBER');
    case 'adminSession':
      return session ? 'allowed' : roleGate(route.role, 'ADMIN');
    case 'ownerSession':
      return session ? 'allowed' : roleGate(route.role, 'OWNER');
    case 'disabledProjectSession':
      // A disabled project's settings, members, billing and security stay reachable (projectPath)
      // so its people can see why and fix it; its data and sending (project, track) do not.
      if (session) return 'allowed';
      return inProject ? 'disabled-403' : roleGate(route.role, 'MEMBER');
  }
  return assertNever(credential);
}

/** The answer the route declares for the cell, else the derived one. */
export function expectedAnswer(route: RouteAuth, credential: MatrixCredential): MatrixAnswer {
  return route.authMatrix?.expect[credential] ?? derivedAnswer(route, credential);
}

/**
 * A route keyed by a name (a contact field, an event name) rather than an id: another project's
 * name is only a name in the caller's own project, which holds nothing under it (an empty answer,
 * nothing removed), not a pointer to the other project's rows.
 */
export const KEYED_BY_NAME: AuthMatrixException = {
  expect: { otherProjectKey: 'allowed' },
  why: "A name, not an id: another project's name reads or clears the caller's own project.",
};
