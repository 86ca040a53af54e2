import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp, uniqueEmail } from '../helpers/factories.js';
import { sessionCookieOf } from '../helpers/http.js';
import type { CapturedEmail } from '../helpers/smtp-capture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

function tokenFrom(email: CapturedEmail, path: string): string {
  const text = email.parsed.text ?? '';
  const match = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(text);
  if (!match?.[1]) throw new Error(`No ${path} link in:\n${text}`);
  // The HTML part carries the same link.
  expect(email.parsed.html).toContain(`${path}?token=${match[1]}`);
  return match[1];
}

describe('sign-up and email verification', () => {
  it('sends a verification email whose link verifies the account once', async () => {
    const email = uniqueEmail('verify');
    const signup = await stack.api.post('/auth/signup', {
      body: { email: email.toUpperCase(), password: 'long enough pw', name: 'Ada' },
    });
    expect(signup.status).toBe(201);
    expect(signup.body).toMatchObject({ email, name: 'Ada', emailVerified: false });

    const message = await stack.smtp.waitFor((m) => m.to.includes(email));
    expect(message.parsed.subject).toBe('Verify your email address');
    const token = tokenFrom(message, '/auth/verify-email');

    // Opening the link shows a page and changes nothing.
    const page = await stack.api.get(`/auth/verify-email?token=${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const cookie = sessionCookieOf(signup);
    expect((await stack.api.get('/users/@me', { cookie })).body.emailVerified).toBe(false);

    const first = await stack.api.post('/auth/verify-email', { body: { token } });
    expect(first.status).toBe(200);
    expect(first.body.emailVerified).toBe(true);
    expect((await stack.api.get('/users/@me', { cookie })).body.emailVerified).toBe(true);

    const second = await stack.api.post('/auth/verify-email', { body: { token } });
    expect(second.status).toBe(400);
    expect(second.body.error.code).toBe('BAD_REQUEST');
  });

  it('refuses a second account for the same address (any case)', async () => {
    const user = await signUp(stack.api, 'dupe');
    const res = await stack.api.post('/auth/signup', {
      body: { email: ` ${user.email.toUpperCase()} `.trim(), password: 'another password' },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('resends verification on request, and only the newest link works', async () => {
    const user = await signUp(stack.api, 'resend');
    const firstMail = await stack.smtp.waitFor((m) => m.to.includes(user.email));
    const oldToken = tokenFrom(firstMail, '/auth/verify-email');
    const again = await stack.api.post('/auth/request-verification', {
      body: { email: user.email },
    });
    expect(again.status).toBe(202);
    const secondMail = await stack.smtp.waitFor(
      (m) => m.to.includes(user.email) && m.id !== firstMail.id,
    );
    const newToken = tokenFrom(secondMail, '/auth/verify-email');
    expect(newToken).not.toBe(oldToken);
    expect((await stack.api.post('/auth/verify-email', { body: { token: oldToken } })).status).toBe(
      400,
    );
    expect((await stack.api.post('/auth/verify-email', { body: { token: newToken } })).status).toBe(
      200,
    );
  });

  it('answers a verification request for an unknown address like any other', async () => {
    const res = await stack.api.post('/auth/request-verification', {
      body: { email: uniqueEmail('nobody') },
    });
    expect(res.status).toBe(202);
  });
});

describe('login, session cookie and logout', () => {
  it('sets an HttpOnly, SameSite, host-only cookie that /users/@me accepts', async () => {
    const user = await signUp(stack.api, 'login');
    const login = await stack.api.post('/auth/login', {
      body: { email: user.email, password: user.password },
    });
    expect(login.status).toBe(200);
    const setCookie = login.headers.getSetCookie().find((c) => c.startsWith('mw_session='));
    expect(setCookie).toBeDefined();
    expect(setCookie).toMatch(/;\s*httponly/i);
    expect(setCookie).toMatch(/;\s*samesite=lax/i);
    expect(setCookie).not.toMatch(/;\s*domain=/i);
    expect(setCookie).not.toMatch(/;\s*secure/i); // PUBLIC_URL is http here

    const me = await stack.api.get('/users/@me', { cookie: sessionCookieOf(login) });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: user.id, email: user.email });
  });

  it('refuses /users/@me without a session, with a forged one, and with an API key', async () => {
    expect((await stack.api.get('/users/@me')).status).toBe(401);
    const forged = await stack.api.get('/users/@me', {
      cookie: 'mw_session=eyJhbGciOiJIUzI1NiJ9.e30.x',
    });
    expect(forged.status).toBe(401);
    expect(forged.body.error.code).toBe('UNAUTHORIZED');
  });

  it('refuses a wrong password and an unknown address alike', async () => {
    const user = await signUp(stack.api, 'wrongpw');
    const wrong = await stack.api.post('/auth/login', {
      body: { email: user.email, password: 'not the password' },
    });
    const unknown = await stack.api.post('/auth/login', {
      body: { email: uniqueEmail('ghost'), password: 'whatever1' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body.error.message).toBe(unknown.body.error.message);
  });

  it('clears the cookie on logout', async () => {
    const res = await stack.api.get('/auth/logout');
    expect(res.status).toBe(200);
    const cleared = res.headers.getSetCookie().find((c) => c.startsWith('mw_session='));
    expect(cleared).toMatch(/mw_session=;|expires=Thu, 01 Jan 1970/i);
  });

  it('lists no OAuth providers', async () => {
    const res = await stack.api.get('/auth/oauth-config');
    expect(res.body).toEqual({ github: { enabled: false }, google: { enabled: false } });
  });
});

describe('password reset', () => {
  it('resets once through the emailed link and ends older sessions', async () => {
    const user = await signUp(stack.api, 'reset');
    const request = await stack.api.post('/auth/request-password-reset', {
      body: { email: user.email },
    });
    expect(request.status).toBe(202);
    const message = await stack.smtp.waitFor(
      (m) => m.to.includes(user.email) && m.parsed.subject === 'Reset your password',
    );
    const token = tokenFrom(message, '/auth/reset-password');

    const reset = await stack.api.post('/auth/reset-password', {
      body: { token, password: 'a brand new password' },
    });
    expect(reset.status).toBe(200);
    const again = await stack.api.post('/auth/reset-password', {
      body: { token, password: 'yet another password' },
    });
    expect(again.status).toBe(400);

    expect(
      (
        await stack.api.post('/auth/login', {
          body: { email: user.email, password: user.password },
        })
      ).status,
    ).toBe(401);
    const login = await stack.api.post('/auth/login', {
      body: { email: user.email, password: 'a brand new password' },
    });
    expect(login.status).toBe(200);
    expect((await stack.api.get('/users/@me', { cookie: user.cookie })).status).toBe(401);
    expect((await stack.api.get('/users/@me', { cookie: sessionCookieOf(login) })).status).toBe(
      200,
    );
  });

  it('answers a reset request for an unknown address the same way and sends nothing', async () => {
    const email = uniqueEmail('noreset');
    const res = await stack.api.post('/auth/request-password-reset', { body: { email } });
    expect(res.status).toBe(202);
    await new Promise((r) => setTimeout(r, 500));
    expect(stack.smtp.messages.some((m) => m.to.includes(email))).toBe(false);
  });

  it('refuses a made-up token', async () => {
    const res = await stack.api.post('/auth/reset-password', {
      body: { token: 'A'.repeat(43), password: 'whatever123' },
    });
    expect(res.status).toBe(400);
  });
});
