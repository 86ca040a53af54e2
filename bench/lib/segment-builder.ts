import { json } from './stack.js';

/** What the segment builder counts while a user edits: plan equals pro AND signed up in 7 days. */
export const EDITED_FILTER = {
  operator: 'AND',
  conditions: [
    { field: 'data.plan', operator: 'equals', value: 'pro' },
    { field: 'createdAt', operator: 'within', value: 7, unit: 'days' },
  ],
};

/** The floor: the same route with a filter that matches no one (an empty OR), so no scan. */
export const EMPTY_FILTER = { operator: 'OR', conditions: [] };

/** A filter of 50 conditions in nested groups, as a large hand-built segment would be. */
export function fiftyConditions(): Record<string, unknown> {
  const condition = (i: number) =>
    i % 5 === 0
      ? { field: 'createdAt', operator: 'within', value: 30 + i, unit: 'days' }
      : i % 5 === 1
        ? { field: 'email', operator: 'contains', value: `reader-${i}` }
        : { field: 'data.plan', operator: i % 2 ? 'equals' : 'notEquals', value: `plan-${i}` };
  const groups = Array.from({ length: 5 }, (_, g) => ({
    operator: g % 2 ? 'AND' : 'OR',
    conditions: Array.from({ length: 9 }, (_, i) => condition(g * 9 + i)),
  }));
  return {
    operator: 'OR',
    conditions: [...groups, ...Array.from({ length: 5 }, (_, i) => condition(45 + i))],
  };
}

/** Wall-clock ms of POST /segments/preview, `runs` times after one warm-up, sorted. */
export async function timePreview({
  apiUrl,
  cookie,
  projectId,
  filter,
  runs,
}: {
  apiUrl: string;
  cookie: string;
  projectId: string;
  filter: unknown;
  runs: number;
}): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run <= runs; run += 1) {
    const started = performance.now();
    const res = await json(`${apiUrl}/segments/preview`, {
      method: 'POST',
      headers: { Cookie: cookie, 'X-Project-Id': projectId, Origin: apiUrl },
      body: JSON.stringify({ filters: filter, sampleSize: 5 }),
    });
    const ms = performance.now() - started;
    if (res.status !== 200) throw new Error(`preview: ${res.status} ${JSON.stringify(res.body)}`);
    if (run > 0) times.push(ms);
  }
  return times.sort((a, b) => a - b);
}

/** A saved segment with the 50-condition filter, for the builder's time to interactive. */
export async function bigSegment(apiUrl: string, cookie: string, projectId: string) {
  const res = await json(`${apiUrl}/segments`, {
    method: 'POST',
    headers: { Cookie: cookie, 'X-Project-Id': projectId, Origin: apiUrl },
    body: JSON.stringify({ name: 'Fifty conditions', filters: fiftyConditions() }),
  });
  if (res.status !== 201) throw new Error(`segment: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as string;
}
