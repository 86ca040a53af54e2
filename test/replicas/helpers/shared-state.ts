import { expect } from 'vitest';
import { projectFixture } from '../../helpers/project-fixture.js';
import type { Client } from '../../helpers/http.js';
import { REPLICAS, type ReplicaStack } from './replica-stack.js';

const log = (line: string): void => console.log(`replicas: ${line}`);

/** The limit both APIs run with for the rate-limit scenario (low: each process reserves 1 point). */
export const LOW_RATE_LIMIT = 40;

/** Restarts the APIs one after the other (a rolling change of their settings). */
export async function restartApis(
  stack: ReplicaStack,
  extra: Record<string, string>,
): Promise<void> {
  for (let i = 0; i < REPLICAS; i += 1) {
    await stack.stopApi(i);
    await stack.startApi(i, extra);
  }
}

const cheapRead = (api: Client, key: string) => api.get('/contacts?limit=1', { key });

/**
 * A project's requests spread over both APIs share one budget (counted in PostgreSQL): one at a
 * time, alternating, the first LOW_RATE_LIMIT pass and every later one is refused, whichever API
 * it reaches; then, for another project, all at once, exactly LOW_RATE_LIMIT pass in total.
 */
export async function rateLimitScenario(stack: ReplicaStack): Promise<void> {
  const limit = LOW_RATE_LIMIT;
  const requests = 2 * limit;

  const one = await projectFixture(stack.api(0));
  const statuses: number[][] = Array.from({ length: REPLICAS }, () => []);
  let first: Awaited<ReturnType<typeof cheapRead>> | undefined;
  let refused: Awaited<ReturnType<typeof cheapRead>> | undefined;
  for (let k = 0; k < requests; k += 1) {
    const res = await cheapRead(stack.api(k % REPLICAS), one.sk.key);
    first ??= res;
    if (res.status === 429) refused ??= res;
    statuses[k % REPLICAS]?.push(res.status);
  }
  // The budget was whole when the first request came.
  expect(first?.headers.get('ratelimit-remaining')).toBe(String(limit - 1));
  const inOrder = Array.from(
    { length: requests },
    (_, k) => statuses[k % REPLICAS]?.[Math.floor(k / REPLICAS)],
  );
  expect(inOrder).toEqual([
    ...Array<number>(limit).fill(200),
    ...Array<number>(requests - limit).fill(429),
  ]);
  expect(refused?.body.error.statusCode).toBe(429);
  expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThan(0);
  const perApi = statuses.map((s) => s.filter((status) => status === 200).length);

  const two = await projectFixture(stack.api(1));
  const together = await Promise.all(
    Array.from({ length: requests }, (_, k) => cheapRead(stack.api(k % REPLICAS), two.sk.key)),
  );
  const accepted = together.filter((res) => res.status === 200).length;
  const others = together.filter((res) => res.status !== 200 && res.status !== 429);
  log(
    `rate limit ${limit}/min over ${REPLICAS} APIs: one at a time ${perApi.reduce((a, b) => a + b)} ` +
      `of ${requests} accepted (${perApi.join(' + ')} by API), all at once ${accepted} of ${requests} accepted`,
  );
  expect(others.map((res) => res.text)).toEqual([]);
  expect(accepted).toBe(limit);
}

/** Keys rotated through one API are refused by every API from the next request on. */
export async function keyRotationScenario(stack: ReplicaStack): Promise<void> {
  const { owner, project, sk } = await projectFixture(stack.api(0));
  const track = (api: Client, key: string) =>
    api.post('/v1/track', { key, body: { email: 'rotation@example.com', event: 'rotated' } });
  for (let i = 0; i < REPLICAS; i += 1) {
    expect((await cheapRead(stack.api(i), sk.key)).status).toBe(200);
    expect((await track(stack.api(i), project.publicKey)).status).toBe(200);
  }

  const rotated = await stack.api(0).post(`/users/@me/projects/${project.id}/regenerate-keys`, {
    cookie: owner.cookie,
  });
  expect(rotated.status, rotated.text).toBe(200);
  const fresh = {
    secretKey: rotated.body.secretKey as string,
    publicKey: rotated.body.publicKey as string,
  };
  expect(fresh.secretKey).not.toBe(project.secretKey);

  const seen: Record<string, number[]> = {
    oldSecret: [],
    oldPublic: [],
    newSecret: [],
    newPublic: [],
  };
  // From the API that did not rotate them first, at once: no cache anywhere keeps the old ones.
  for (const i of [1, 0]) {
    const api = stack.api(i);
    seen.oldSecret?.push((await cheapRead(api, project.secretKey)).status);
    seen.oldPublic?.push((await track(api, project.publicKey)).status);
    seen.newSecret?.push((await cheapRead(api, fresh.secretKey)).status);
    seen.newPublic?.push((await track(api, fresh.publicKey)).status);
  }
  log(`key rotation through API 0, the next requests to API 1 and API 0: ${JSON.stringify(seen)}`);
  expect(seen).toEqual({
    oldSecret: [401, 401],
    oldPublic: [401, 401],
    newSecret: [200, 200],
    newPublic: [200, 200],
  });
}
