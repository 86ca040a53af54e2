import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import { signUp, uniqueEmail, type TestUser } from '../helpers/factories.js';
import { sessionCookieOf } from '../helpers/http.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

interface SessionItem {
  id: string;
  createdAt: string;
  lastSeenAt: string;
  userAgent: string | null;
  current: boolean;
}

/** Another session of the user, from a browser named `agent`. */
async function logIn(user: TestUser, agent = 'TestAgent/1.0', password = user.password) {
  const res = await stack.api.post('/auth/login', {
    body: { email: user.email, password },
    headers: { 'User-Agent': agent },
  });
  expect(res.status, res.text).toBe(200);
  return sessionCookieOf(res);
}

const me = async (cookie: string): Promise<number> =>
  (await stack.api.get('/users/@me', { cookie })).status;

async function sessionsOf(cookie: string): Promise<SessionItem[]> {
  const res = await stack.api.get<SessionItem[]>('/users/@me/sessions', { cookie });
  expect(res.status, res.text).toBe(200);
  return res.body;
}

describe('logout', () => {
  it('ends the session on the server: the old cookie gets 401 (GET and POST)', async () => {
    const user = await signUp(stack.api, 'logout');
    for (const method of ['get', 'post'] as const) {
      const cookie = await logIn(user);
      expect(await me(cookie)).toBe(200);
      const res = await stack.api[method]('/auth/logout', { cookie });
      expect(res.status).toBe(200);
      expect(res.headers.getSetCookie().find((c) => c.startsWith('mw_session='))).toMatch(
        /mw_session=;|expires=Thu, 01 Jan 1970/i,
      );
      const after = await stack.api.get('/users/@me', { cookie });
      expect(after.status).toBe(401);
      expect(after.body.error.code).toBe('UNAUTHORIZED');
    }
    // The sign-up's own session was not touched.
    expect(await me(user.cookie)).toBe(200);
  });

  it('refuses a validly signed token that names no session (issued before sessions)', async () => {
    const user = await signUp(stack.api, 'oldtoken');
    const secret = stack.env.JWT_SECRET as string;
    const legacy = jwt.sign({ ver: 0 }, secret, { subject: user.id, expiresIn: 3600 });
    expect(await me(`mw_session=${legacy}`)).toBe(401);
    const unknown = jwt.sign({ sid: crypto.randomUUID() }, secret, {
      subject: user.id,
      expiresIn: 3600,
    });
    expect(await me(`mw_session=${unknown}`)).toBe(401);
  });
});

describe('the sessions of the account', () => {
  it('lists live sessions with created, last seen, user agent and the current one', async () => {
    const user = await signUp(stack.api, 'list');
    const phone = await logIn(user, 'PhoneBrowser/2.0');
    const laptop = await logIn(user, `LaptopBrowser/3.0 ${'x'.repeat(400)}`);
    const sessions = await sessionsOf(phone);
    expect(sessions).toHaveLength(3);
    expect(sessions.filter((s) => s.current)).toHaveLength(1);
    const current = sessions.find((s) => s.current);
    expect(current?.userAgent).toBe('PhoneBrowser/2.0');
    const long = sessions.find((s) => s.userAgent?.startsWith('LaptopBrowser'));
    expect(long?.userAgent).toHaveLength(256); // cut, not refused
    for (const s of sessions) {
      expect(Date.parse(s.createdAt)).not.toBeNaN();
      expect(Date.parse(s.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(s.createdAt) - 1000);
    }
    // Another user sees only their own.
    const other = await signUp(stack.api, 'other');
    expect((await sessionsOf(other.cookie)).map((s) => s.id)).not.toContain(current?.id);
    expect(await me(laptop)).toBe(200);
  });

  it('writes last seen at most once a minute', async () => {
    const user = await signUp(stack.api, 'lastseen');
    const [session] = await sessionsOf(user.cookie);
    if (!session) throw new Error('no session');
    const setLastSeen = (interval: string) =>
      withDatabase((db) =>
        db.query(`UPDATE sessions SET last_seen_at = now() - $2::interval WHERE id = $1`, [
          session.id,
          interval,
        ]),
      );
    const lastSeen = async () =>
      Date.parse((await sessionsOf(user.cookie)).find((s) => s.id === session.id)!.lastSeenAt);
    await setLastSeen('30 seconds');
    expect(Date.now() - (await lastSeen())).toBeGreaterThan(25_000); // kept
    await setLastSeen('2 minutes');
    expect(Date.now() - (await lastSeen())).toBeLessThan(10_000); // written by this request
  });

  it("ends one session by id; another user's or an unknown id is 404", async () => {
    const user = await signUp(stack.api, 'revoke');
    const other = await logIn(user, 'Other/1.0');
    const target = (await sessionsOf(other)).find((s) => s.current);
    if (!target) throw new Error('no current session');

    const stranger = await signUp(stack.api, 'stranger');
    const foreign = await stack.api.delete(`/users/@me/sessions/${target.id}`, {
      cookie: stranger.cookie,
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
    expect(await me(other)).toBe(200);
    const unknown = await stack.api.delete(`/users/@me/sessions/${crypto.randomUUID()}`, {
      cookie: user.cookie,
    });
    expect(unknown.status).toBe(404);

    const res = await stack.api.delete(`/users/@me/sessions/${target.id}`, { cookie: user.cookie });
    expect(res.status).toBe(204);
    expect(await me(other)).toBe(401);
    expect(await me(user.cookie)).toBe(200);
    expect((await sessionsOf(user.cookie)).map((s) => s.id)).not.toContain(target.id);
    const again = await stack.api.delete(`/users/@me/sessions/${target.id}`, {
      cookie: user.cookie,
    });
    expect(again.status).toBe(404);
  });

  it('ends its own session when asked to, and clears the cookie', async () => {
    const user = await signUp(stack.api, 'self');
    const [mine] = await sessionsOf(user.cookie);
    const res = await stack.api.delete(`/users/@me/sessions/${mine?.id}`, { cookie: user.cookie });
    expect(res.status).toBe(204);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('mw_session='))).toBeDefined();
    expect(await me(user.cookie)).toBe(401);
  });

  it('logs out everywhere else and keeps the current session', async () => {
    const user = await signUp(stack.api, 'everywhere');
    const others = [await logIn(user, 'A/1'), await logIn(user, 'B/1')];
    const bystander = await signUp(stack.api, 'bystander');
    const res = await stack.api.post('/users/@me/sessions/revoke-others', { cookie: user.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ revoked: 2 });
    for (const cookie of others) expect(await me(cookie)).toBe(401);
    expect(await me(user.cookie)).toBe(200);
    expect(await sessionsOf(user.cookie)).toHaveLength(1);
    expect(await me(bystander.cookie)).toBe(200);
  });

  it('needs a session: API keys and no cookie are 401', async () => {
    expect((await stack.api.get('/users/@me/sessions')).status).toBe(401);
    expect((await stack.api.post('/users/@me/sessions/revoke-others')).status).toBe(401);
  });
});

describe('password and email changes', () => {
  it('a password change needs the current one and ends every other session', async () => {
    const user = await signUp(stack.api, 'pwchange');
    const other = await logIn(user, 'Other/1.0');
    const wrong = await stack.api.post('/users/@me/password', {
      cookie: user.cookie,
      body: { currentPassword: 'not it at all', newPassword: 'a new password!' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.error.errors[0].field).toBe('currentPassword');
    expect(await me(other)).toBe(200);

    const res = await stack.api.post('/users/@me/password', {
      cookie: user.cookie,
      body: { currentPassword: user.password, newPassword: 'a new password!' },
    });
    expect(res.status, res.text).toBe(200);
    expect(await me(other)).toBe(401);
    expect(await me(user.cookie)).toBe(200);
    const old = await stack.api.post('/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(old.status).toBe(401);
    await logIn(user, 'Again/1', 'a new password!');
  });

  it('an email change sends a verification to the new address and ends other sessions', async () => {
    const user = await signUp(stack.api, 'emailchange');
    const other = await logIn(user, 'Other/1.0');
    const taken = await signUp(stack.api, 'taken');
    const conflict = await stack.api.post('/users/@me/email', {
      cookie: user.cookie,
      body: { email: taken.email, currentPassword: user.password },
    });
    expect(conflict.status).toBe(409);
    expect(await me(other)).toBe(200);

    const email = uniqueEmail('moved');
    const res = await stack.api.post('/users/@me/email', {
      cookie: user.cookie,
      body: { email: email.toUpperCase(), currentPassword: user.password },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ email, emailVerified: false });
    expect(await me(other)).toBe(401);
    expect(await me(user.cookie)).toBe(200);
    await stack.smtp.waitFor(
      (m) => m.to.includes(email) && m.parsed.subject === 'Verify your email address',
    );
    await logIn({ ...user, email }, 'New/1');
  });

  it('a password reset ends every session, the one that asked too', async () => {
    const user = await signUp(stack.api, 'resetall');
    const other = await logIn(user);
    await stack.api.post('/auth/request-password-reset', { body: { email: user.email } });
    const message = await stack.smtp.waitFor(
      (m) => m.to.includes(user.email) && m.parsed.subject === 'Reset your password',
    );
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(message.parsed.text ?? '')?.[1];
    const res = await stack.api.post('/auth/reset-password', {
      body: { token, password: 'reset to this one' },
    });
    expect(res.status, res.text).toBe(200);
    expect(await me(user.cookie)).toBe(401);
    expect(await me(other)).toBe(401);
  });
});
