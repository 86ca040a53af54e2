import type { Context } from 'koa';
import { SESSION_COOKIE } from '../../domain/accounts/sessions.js';
import { findLiveSession, type LiveSession } from '../../domain/accounts/sessions.service.js';
import {
  authenticateApiKey,
  getProject,
  membershipRole,
} from '../../domain/projects/projects.service.js';
import { roleAtLeast, whoMay, type ProjectRole } from '../../domain/projects/roles.pure.js';
import { DomainError, forbidden, notFound } from '../../domain/shared/errors.js';
import type { Em } from '../../domain/shared/ports.js';
import type { AppDeps } from '../deps.js';
import type { AuthInfo, AuthMode } from '../http/route.js';

const invalidKey = (message: string): DomainError =>
  new DomainError('INVALID_API_KEY', message, {
    suggestion:
      'Send `Authorization: Bearer <key>`; the public key (pk_) works only on POST /v1/track and POST /v1/subscribe.',
  });

const projectDisabled = (): DomainError =>
  new DomainError('PROJECT_DISABLED', 'This project is disabled');

function bearerOf(ctx: Context): string | undefined {
  const header = ctx.get('Authorization');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The live session the cookie names: one query by primary key (revocations show at once). */
async function cookieSession(ctx: Context, deps: AppDeps): Promise<LiveSession | undefined> {
  const token = ctx.cookies.get(SESSION_COOKIE);
  if (!token) return undefined;
  return findLiveSession({ sql: deps.sql, sessionSecret: deps.accounts.sessionSecret, token });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Resolves who is calling and, for project-scoped routes, which project and with what role. */
export async function authenticate({
  ctx,
  em,
  deps,
  mode,
}: {
  ctx: Context;
  /** The request's entity manager, forked on first use (only a session needs one here). */
  em: () => Em;
  deps: AppDeps;
  mode: AuthMode;
}): Promise<AuthInfo> {
  if (mode === 'none') return {};
  const bearer = bearerOf(ctx);

  if (bearer) {
    const identity = await authenticateApiKey({ lookup: deps.keyLookup, key: bearer });
    if (!identity) throw invalidKey('Invalid API key');
    if (identity.kind === 'public' && mode !== 'track') {
      throw invalidKey(
        'The public key (pk_) can only be used on POST /v1/track and POST /v1/subscribe',
      );
    }
    if (mode === 'session') {
      throw new DomainError(
        'UNAUTHORIZED',
        'This route needs a dashboard session, not an API key',
        {
          suggestion: 'Log in with POST /auth/login.',
        },
      );
    }
    const principal = {
      type: 'key' as const,
      projectId: identity.projectId,
      keyKind: identity.kind,
      asksConfirmation: identity.asksConfirmation,
    };
    if (mode === 'projectPath' && ctx.params.id !== identity.projectId) throw notFound('Project');
    if (identity.disabled && mode !== 'projectPath') throw projectDisabled();
    return { principal, projectId: identity.projectId, role: 'ADMIN' };
  }

  const session = await cookieSession(ctx, deps);
  if (!session) {
    if (mode === 'project' || mode === 'track') throw invalidKey('Missing API key');
    throw new DomainError('UNAUTHORIZED', 'Log in first', {
      suggestion: 'POST /auth/login sets the session cookie.',
    });
  }
  const { userId } = session;
  const principal = { type: 'session' as const, userId, sessionId: session.sessionId };
  if (mode === 'session') return { principal };

  const projectId = mode === 'projectPath' ? ctx.params.id : ctx.get('X-Project-Id');
  if (!projectId) {
    throw new DomainError('BAD_REQUEST', 'Name the project with the X-Project-Id header', {
      suggestion: 'Or call this route with the project secret key.',
    });
  }
  if (!UUID.test(projectId)) throw notFound('Project');
  const role = await membershipRole({ em: em(), userId, projectId });
  if (mode !== 'projectPath' && (await getProject({ em: em(), projectId })).disabledAt) {
    throw projectDisabled();
  }
  return { principal, projectId, role };
}

/** A route that declares a role refuses callers with less (403). */
export function authorise({ auth, role }: { auth: AuthInfo; role: ProjectRole }): void {
  if (!roleAtLeast(auth.role ?? 'MEMBER', role)) {
    throw forbidden(`Only ${whoMay(role)} of the project can do this`);
  }
}
