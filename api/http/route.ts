import type { Context } from 'koa';
import type { z } from 'zod';
import type { Sql } from '../../db/sql/sql.js';
import type { KeyKind } from '../../domain/projects/key-kind.pure.js';
import type { ProjectRole } from '../../domain/projects/roles.pure.js';
import type { Em } from '../../domain/shared/ports.js';
import type { UnstorableTextMode } from '../../domain/shared/storable-text.pure.js';
import type { AppDeps } from '../deps.js';
import type { AuthMatrixException } from './auth-expectation.pure.js';

/**
 * none: public. session: a logged-in user. projectPath: the project named by `:id`, for its
 * members or its own secret key. project: the caller's project, from a secret key or a session
 * with X-Project-Id. track: as project, and the public key is accepted too.
 */
export type AuthMode = 'none' | 'session' | 'projectPath' | 'project' | 'track';

export type Principal =
  | {
      type: 'key';
      projectId: string;
      keyKind: KeyKind;
      /** A public key's subscriptions wait for a confirmation (the project's double opt-in). */
      asksConfirmation: boolean;
    }
  | { type: 'session'; userId: string; sessionId: string };

export interface AuthInfo {
  principal?: Principal;
  /** Set for project-scoped modes. */
  projectId?: string;
  /** The caller's role in that project; a secret key acts as an ADMIN. */
  role?: ProjectRole;
}

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  em: Em;
  /** Hand-written SQL on the pg pool (hot paths, set-based statements). */
  sql: Sql;
  auth: AuthInfo;
  deps: AppDeps;
  ctx: Context;
}

export interface RouteSpec<P = unknown, Q = unknown, B = unknown> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  auth: AuthMode;
  /** The least role the caller needs in the project (a secret key acts as an ADMIN). */
  role?: ProjectRole;
  /**
   * Read only by the auth matrix test: cells whose answer differs from the one `auth` and `role`
   * give (api/http/auth-expectation.pure.ts), with the reason.
   */
  authMatrix?: AuthMatrixException;
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * Text PostgreSQL cannot store (NUL, lone surrogates) in params, query or body: refused with a
   * 422 unless the route takes a provider's callback, whose text is kept cleaned instead.
   */
  unstorableText?: UnstorableTextMode;
  /** Largest accepted JSON body; 1 MB unless a route needs more. */
  bodyLimit?: string;
  /** Documented only: a multipart upload the handler reads itself. */
  upload?: { field: string; maxBytes: number };
  status?: number;
  /** Health probes and the docs are not counted against any rate limit. */
  rateLimit?: false;
  response?: z.ZodType;
  /** Documented only: the route answers something other than JSON (a page, a file). */
  produces?: string;
  handler: (input: RouteInput<P, Q, B>) => Promise<unknown>;
}

// The spec is stored type-erased; defineRoute keeps the handler's input typed where it is written.
export type AnyRoute = RouteSpec<any, any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export function defineRoute<P = Record<string, never>, Q = Record<string, never>, B = undefined>(
  spec: RouteSpec<P, Q, B>,
): AnyRoute {
  return spec as AnyRoute;
}
