import type { Client } from './http.js';

/** Polls a job until it is finished (COMPLETED, FAILED or CANCELLED) and returns it. */
export async function waitForJob(
  api: Client,
  path: string,
  key: string,
  { timeoutMs = 60_000, until }: { timeoutMs?: number; until?: (job: any) => boolean } = {},
): Promise<any> {
  const done = until ?? ((job: any) => ['COMPLETED', 'FAILED', 'CANCELLED'].includes(job.status));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(path, { key });
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${res.text}`);
    if (done(res.body)) return res.body;
    if (Date.now() > deadline) throw new Error(`${path} not done in ${timeoutMs} ms: ${res.text}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
