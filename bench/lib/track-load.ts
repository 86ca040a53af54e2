// The load of bench:track (POST /v1/track, half existing and half new contacts), shared by the
// benchmarks that put it on the API.
import autocannon from 'autocannon';
import { randomUUID } from 'node:crypto';
import { json } from './stack.js';

export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const EXISTING = 1000;

export interface LoadFigures {
  /** Answered requests in all. */
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** Half the calls go to 1,000 existing contacts, half create a new one. */
export async function load(
  url: string,
  key: string | undefined,
  label: string,
  seconds: number,
): Promise<LoadFigures> {
  let n = 0;
  const result = await autocannon({
    url: `${url}/v1/track`,
    connections: CONNECTIONS,
    duration: seconds,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
    },
    requests: [
      {
        setupRequest: (request) => {
          n += 1;
          const email =
            n % 2 === 0
              ? `existing-${n % EXISTING}@bench.test`
              : `new-${label}-${n}-${randomUUID().slice(0, 8)}@bench.test`;
          return {
            ...request,
            body: JSON.stringify({
              email,
              event: n % 3 ? 'page-viewed' : 'clicked',
              data: { n, plan: n % 2 ? 'pro' : 'free' },
            }),
          };
        },
      },
    ],
  });
  return {
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export async function seedExisting(url: string, key: string): Promise<void> {
  for (let i = 0; i < EXISTING; i += 50) {
    await Promise.all(
      Array.from({ length: 50 }, (_, j) =>
        json(`${url}/v1/track`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}` },
          body: JSON.stringify({ email: `existing-${i + j}@bench.test`, event: 'seeded' }),
        }),
      ),
    );
  }
}
