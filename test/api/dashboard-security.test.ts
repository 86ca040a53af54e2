import { access } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject, signUp, type TestUser } from '../helpers/factories.js';
import { createClient } from '../helpers/http.js';
import { ROOT } from '../helpers/processes.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
let owner: TestUser;
beforeAll(async () => {
  // The served build is made by `npm install` (prepare) or `npm run build:web`.
  await access(path.join(ROOT, 'web/dist/index.html'));
  stack = await startStack();
  owner = await signUp(stack.api, 'origin');
});
afterAll(async () => {
  await stack?.stop();
});

describe('the session cookie', () => {
  it('is HttpOnly, SameSite=Lax, host-only and not Secure under an http PUBLIC_URL', async () => {
    const login = await stack.api.post('/auth/login', {
      body: { email: owner.email, password: owner.password },
    });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('mw_session='));
    expect(cookie).toMatch(/; httponly/i);
    expect(cookie).toMatch(/; samesite=lax/i);
    expect(cookie).not.toMatch(/; secure/i);
    expect(cookie).not.toMatch(/; domain=/i);
  });
});

describe('cross-origin requests with the session cookie', () => {
  const foreign = 'https://evil.example';

  it('refuses a cookie POST from another origin with 403 in the error envelope', async () => {
    const res = await stack.api.post('/users/@me/projects', {
      cookie: owner.cookie,
      headers: { Origin: foreign },
      body: { name: 'Forged' },
    });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      success: false,
      error: { code: 'FORBIDDEN', statusCode: 403, requestId: expect.any(String) },
    });
    const projects = await stack.api.get('/users/@me/projects', { cookie: owner.cookie });
    expect(projects.body.map((p: { name: string }) => p.name)).not.toContain('Forged');
  });

  it('refuses PATCH and DELETE too, and falls back on the Referer, and refuses Origin: null', async () => {
    const project = await createProject(stack.api, owner, 'Kept');
    const patch = await stack.api.patch(`/users/@me/projects/${project.id}`, {
      cookie: owner.cookie,
      headers: { Referer: `${foreign}/page` },
      body: { name: 'Renamed' },
    });
    expect(patch.status).toBe(403);
    const remove = await stack.api.delete(`/users/@me/projects/${project.id}`, {
      cookie: owner.cookie,
      headers: { Origin: 'null' },
    });
    expect(remove.status).toBe(403);
  });

  it('accepts the same request from PUBLIC_URL and from a client that sends no Origin', async () => {
    const same = await stack.api.post('/users/@me/projects', {
      cookie: owner.cookie,
      headers: { Origin: stack.env.PUBLIC_URL as string },
      body: { name: 'Same origin' },
    });
    expect(same.status).toBe(201);
    const noOrigin = await stack.api.post('/users/@me/projects', {
      cookie: owner.cookie,
      body: { name: 'No origin' },
    });
    expect(noOrigin.status).toBe(201);
  });

  it('leaves API-key requests alone whatever their Origin', async () => {
    const project = await createProject(stack.api, owner, 'Keyed');
    const res = await stack.api.post('/contacts', {
      key: project.secretKey,
      headers: { Origin: foreign },
      body: { email: 'keyed@example.com' },
    });
    expect(res.status, res.text).toBeLessThan(300);
  });

  it('lets a cookie GET from another origin through (it changes nothing)', async () => {
    const res = await stack.api.get('/users/@me', {
      cookie: owner.cookie,
      headers: { Origin: foreign },
    });
    expect(res.status).toBe(200);
  });
});

describe('the dashboard at /app/', () => {
  it('serves index.html uncached with a CSP without inline scripts, for any app path', async () => {
    for (const p of ['/app/', '/app/contacts/some-id', '/app/login']) {
      const res = await stack.api.get(p);
      expect(res.status, p).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain("unsafe-inline'; script");
      expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(res.text).toContain('<div id="root">');
      expect(res.text).not.toMatch(/<script>(?!<\/script>)/);
    }
  });

  it('caches hashed assets for a year and answers 404 for a missing one', async () => {
    const index = await stack.api.get('/app/');
    const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec(index.text)?.[1];
    expect(asset).toBeDefined();
    const res = await stack.api.get(asset as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('javascript');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await stack.api.get('/app/assets/gone-123.js')).status).toBe(404);
    expect((await stack.api.get('/app/%2e%2e/package.json')).text).not.toContain('"mailwright"');
  });

  it('sends its text files compressed to a client that accepts it, and plain to one that does not', async () => {
    const index = await stack.api.get('/app/');
    const asset = /src="(\/app\/assets\/[^"]+\.js)"/.exec(index.text)?.[1] as string;
    const plain = await rawGet(asset, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('Accept-Encoding');
    const br = await rawGet(asset, { 'Accept-Encoding': 'br, gzip' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 2);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await rawGet('/app/contacts', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe('no-cache');
    expect(zlib.gunzipSync(gz.body).toString()).toContain('<div id="root">');
  });

  it('redirects a browser from / to /app/, and leaves the API routes where they are', async () => {
    const browser = await stack.api.get('/', { headers: { Accept: 'text/html,*/*;q=0.8' } });
    expect(browser.status).toBe(302);
    expect(browser.headers.get('location')).toBe('/app/');
    const json = await stack.api.get('/', { headers: { Accept: 'application/json' } });
    expect(json.status).not.toBe(302);
    expect((await stack.api.get('/health')).status).toBe(200);
  });
});

describe('under an https PUBLIC_URL', () => {
  let secure: TestStack;
  beforeAll(async () => {
    secure = await startStack({ env: { PUBLIC_URL: 'https://mail.example.test' } });
  });
  afterAll(async () => {
    await secure?.stop();
  });

  it('marks the session cookie Secure and checks Origin against that URL', async () => {
    const api = createClient(`http://127.0.0.1:${secure.env.PORT}`, {
      headers: { 'X-Forwarded-Proto': 'https', 'X-Forwarded-For': '10.9.8.7' },
    });
    const user = await signUp(api, 'secure');
    const login = await api.post('/auth/login', {
      body: { email: user.email, password: user.password },
    });
    const cookie = login.headers.getSetCookie().find((c) => c.startsWith('mw_session='));
    expect(cookie).toMatch(/; secure/i);
    expect(cookie).toMatch(/; httponly/i);
    const ok = await api.post('/users/@me/projects', {
      cookie: user.cookie,
      headers: { Origin: 'https://mail.example.test' },
      body: { name: 'From the dashboard' },
    });
    expect(ok.status).toBe(201);
    const refused = await api.post('/users/@me/projects', {
      cookie: user.cookie,
      headers: { Origin: 'http://mail.example.test' },
      body: { name: 'Downgraded' },
    });
    expect(refused.status).toBe(403);
  });
});

/** A GET with exactly the given headers (fetch would add and undo its own Accept-Encoding). */
function rawGet(
  pathname: string,
  headers: Record<string, string>,
): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(pathname, stack.api.baseUrl), { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}
