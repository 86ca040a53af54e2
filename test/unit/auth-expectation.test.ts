import { describe, expect, it } from 'vitest';
import {
  expectedAnswer,
  MATRIX_CREDENTIALS,
  namesResource,
  type MatrixAnswer,
  type MatrixCredential,
  type RouteAuth,
} from '../../api/http/auth-expectation.pure.js';

const row = (route: RouteAuth): Record<MatrixCredential, MatrixAnswer> =>
  Object.fromEntries(MATRIX_CREDENTIALS.map((c) => [c, expectedAnswer(route, c)])) as Record<
    MatrixCredential,
    MatrixAnswer
  >;

describe('the auth matrix expectations', () => {
  it('lets everyone reach a public route', () => {
    expect(new Set(Object.values(row({ path: '/health', auth: 'none' })))).toEqual(
      new Set(['allowed']),
    );
  });

  it('gives an OWNER-only project route 404 to outsiders and 403 below OWNER', () => {
    expect(row({ path: '/users/@me/projects/:id', auth: 'projectPath', role: 'OWNER' })).toEqual({
      none: 'denied-401',
      garbageKey: 'denied-401',
      publicKey: 'denied-401',
      otherProjectKey: 'not-found-404',
      otherUserSession: 'not-found-404',
      memberSession: 'denied-403',
      adminSession: 'denied-403',
      ownerSession: 'allowed',
      disabledProjectSession: 'denied-403',
    });
  });

  it("answers another project's key with its own data on lists and 404 on A's ids", () => {
    expect(expectedAnswer({ path: '/contacts', auth: 'project' }, 'otherProjectKey')).toBe(
      'allowed',
    );
    expect(expectedAnswer({ path: '/contacts/:id', auth: 'project' }, 'otherProjectKey')).toBe(
      'not-found-404',
    );
    expect(
      expectedAnswer({ path: '/contacts/:id', auth: 'project' }, 'disabledProjectSession'),
    ).toBe('disabled-403');
  });

  it('accepts the public key on track only, and refuses API keys on session routes', () => {
    expect(expectedAnswer({ path: '/v1/track', auth: 'track' }, 'publicKey')).toBe('allowed');
    expect(expectedAnswer({ path: '/v1/send', auth: 'project' }, 'publicKey')).toBe('denied-401');
    expect(expectedAnswer({ path: '/users/@me', auth: 'session' }, 'otherProjectKey')).toBe(
      'denied-401',
    );
    expect(
      expectedAnswer({ path: '/users/@me/sessions/:id', auth: 'session' }, 'otherUserSession'),
    ).toBe('not-found-404');
  });

  it('takes a cell the route declares over the derived one', () => {
    const route: RouteAuth = {
      path: '/projects/:id/members/:userId',
      auth: 'projectPath',
      authMatrix: { expect: { memberSession: 'denied-403' }, why: 'only leaving' },
    };
    expect(expectedAnswer(route, 'memberSession')).toBe('denied-403');
    expect(expectedAnswer(route, 'adminSession')).toBe('allowed');
    expect(namesResource(route)).toBe(true);
    expect(namesResource({ path: '/projects/:id/members', auth: 'projectPath' })).toBe(false);
  });
});
