import { randomBytes, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { sessionCookieOf, type Client } from './http.js';

export const uniqueEmail = (label = 'user'): string =>
  `${label}-${randomUUID().slice(0, 8)}@example.com`;

export interface TestUser {
  id: string;
  email: string;
  password: string;
  cookie: string;
}

export async function signUp(api: Client, label = 'user'): Promise<TestUser> {
  const email = uniqueEmail(label);
  const password = 'correct horse battery';
  // Sign-ups are throttled per client address (AUTH_LIMITS): each test user signs up from an
  // address of its own, so a file's many fixtures stay within the limit its tests exercise.
  const [a, b, c] = randomBytes(3);
  const res = await api.post('/auth/signup', {
    body: { email, password },
    headers: { 'X-Forwarded-For': `10.${a}.${b}.${c}` },
  });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, email, password, cookie: sessionCookieOf(res) };
}

export interface TestProject {
  id: string;
  publicKey: string;
  secretKey: string;
}

export async function createProject(
  api: Client,
  owner: TestUser,
  name = 'Test project',
): Promise<TestProject> {
  const res = await api.post('/users/@me/projects', { cookie: owner.cookie, body: { name } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id, publicKey: res.body.publicKey, secretKey: res.body.secretKey };
}
