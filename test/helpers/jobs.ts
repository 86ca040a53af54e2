import { eventually } from './eventually.js';
import type { Client } from './http.js';

/** Polls a job until it is finished (COMPLETED, FAILED or CANCELLED) and returns it. */
export async function waitForJob(
  api: Client,
  path: string,
  key: string,
  { timeoutMs = 60_000, until }: { timeoutMs?: number; until?: (job: any) => boolean } = {},
): Promise<any> {
  const done = until ?? ((job: any) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(job.status));
  let last = '';
  return eventually(
    async () => {
      const res = await api.get(path, { key });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
      last = res.text;
      return done(res.body) && res.body;
    },
    { what: `${path} to be done`, timeoutMs, intervalMs: 50, describe: () => last },
  );
}
