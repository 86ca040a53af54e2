import { expect } from 'vitest';
import { eventually } from './eventually.js';
import type { Client } from './http.js';
import { waitForJob } from './jobs.js';

type Sk = { key: string };

/** Contacts made through the CSV import (one job), `plan` and `subscribed` columns as given. */
export async function importContacts(
  api: Client,
  sk: Sk,
  rows: { email: string; plan?: string; subscribed?: boolean }[],
): Promise<void> {
  const csv = ['email,plan,subscribed']
    .concat(rows.map((r) => `${r.email},${r.plan ?? ''},${r.subscribed ?? true}`))
    .join('\n');
  const res = await api.upload('/contacts/import', { field: 'file', content: csv, key: sk.key });
  expect(res.status, res.text).toBe(202);
  const job = await waitForJob(api, `/contacts/import/${res.body.jobId}`, sk.key, {
    timeoutMs: 120_000,
  });
  expect(job.status, JSON.stringify(job)).toBe('COMPLETED');
}

/** Creates a DRAFT campaign and answers it. */
export async function createCampaign(
  api: Client,
  sk: Sk,
  body: Record<string, unknown>,
): Promise<Record<string, any>> {
  const res = await api.post('/campaigns', { ...sk, body });
  expect(res.status, res.text).toBe(201);
  expect(res.body.success).toBe(true);
  return res.body.data;
}

/** Polls a campaign until `until` holds (default: SENT, CANCELLED or FAILED). */
export async function waitForCampaign(
  api: Client,
  sk: Sk,
  id: string,
  {
    until = (c) => ['SENT', 'CANCELLED', 'FAILED'].includes(c.status),
    timeoutMs = 60_000,
  }: { until?: (campaign: any) => boolean; timeoutMs?: number } = {},
): Promise<any> {
  let last = '';
  return eventually(
    async () => {
      const res = await api.get(`/campaigns/${id}`, sk);
      expect(res.status, res.text).toBe(200);
      last = res.text;
      return until(res.body.data) && res.body.data;
    },
    { what: `campaign ${id}`, timeoutMs, describe: () => last },
  );
}

export async function campaignStats(api: Client, sk: Sk, id: string): Promise<any> {
  const res = await api.get(`/campaigns/${id}/stats`, sk);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}
