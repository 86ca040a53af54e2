import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withApiWithoutTemporal } from '../helpers/api-without-temporal.js';
import { withDatabase } from '../helpers/database.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { eventually } from '../helpers/eventually.js';

const CONTACTS = 200_000;
const BATCH = 5_000;

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { SEGMENT_COMPUTE_BATCH_SIZE: String(BATCH) } });
});
afterAll(async () => {
  await stack?.stop();
});

describe('a segment compute survives its worker', () => {
  it('is exact after the worker is killed mid-compute: every entry once, none missing', async () => {
    const { sk, project } = await projectFixture(stack.api);
    await withDatabase((db) =>
      db.query(
        `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
         SELECT uuid_generate_v7(), $1, 'c' || n || '@bulk.test', true,
                jsonb_build_object('n', n, 'even', n % 2 = 0), now(), now(), now()
           FROM generate_series(1, $2::int) AS n`,
        [project.id, CONTACTS],
      ),
    );
    const created = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'Even',
        filters: {
          operator: 'AND',
          conditions: [{ field: 'data.even', operator: 'equals', value: true }],
        },
        trackMembership: true,
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.memberCount).toBe(CONTACTS / 2);
    const segmentId = created.body.id as string;

    // The route waits for the compute's result, across the worker's death.
    const computing = stack.api.post(`/segments/${segmentId}/compute`, sk);
    const progress = async () =>
      withDatabase(async (db) => {
        const { rows } = await db.query(
          `SELECT after_contact_id, done FROM segment_computes WHERE segment_id = $1`,
          [segmentId],
        );
        return rows[0] as { after_contact_id: string; done: boolean } | undefined;
      });
    const atKill = await eventually(
      async () => {
        const now = await progress();
        return now?.after_contact_id !== '00000000-0000-0000-0000-000000000000' && now;
      },
      { what: 'the compute to make progress', timeoutMs: 60_000, intervalMs: 20 },
    );
    await stack.stopWorker('SIGKILL');
    expect(atKill.done).toBe(false);
    const committedAtKill = await withDatabase(async (db) => {
      const { rows } = await db.query(
        'SELECT count(*)::int AS n FROM segment_members WHERE segment_id = $1',
        [segmentId],
      );
      return rows[0].n as number;
    });
    expect(committedAtKill).toBeGreaterThan(0);
    expect(committedAtKill).toBeLessThan(CONTACTS / 2);
    await stack.startWorker();

    const result = await computing;
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ added: CONTACTS / 2, removed: 0, total: CONTACTS / 2 });

    const check = await withDatabase(async (db) => {
      // The check joins 100,000-row sets that a moment ago were empty; planned on the tables' old
      // statistics (before autovacuum has looked) it picks nested loops and runs for minutes.
      await db.query('ANALYZE contacts, segment_members, events');
      const { rows } = await db.query(
        `SELECT
           (SELECT count(*)::int FROM segment_members m JOIN contacts c ON c.id = m.contact_id
             WHERE m.segment_id = $1 AND (c.data->>'even')::boolean) AS even_members,
           (SELECT count(*)::int FROM segment_members WHERE segment_id = $1) AS members,
           (SELECT count(*)::int FROM events WHERE project_id = $2 AND name = 'segment.even.entry') AS entries,
           (SELECT count(DISTINCT contact_id)::int FROM events
             WHERE project_id = $2 AND name = 'segment.even.entry') AS entered,
           (SELECT count(*)::int FROM events e JOIN segment_members m
               ON m.contact_id = e.contact_id AND m.segment_id = $1
             WHERE e.project_id = $2 AND e.name = 'segment.even.entry') AS entries_of_members`,
        [segmentId, project.id],
      );
      return rows[0];
    });
    expect(check).toEqual({
      even_members: CONTACTS / 2,
      members: CONTACTS / 2,
      entries: CONTACTS / 2,
      entered: CONTACTS / 2,
      entries_of_members: CONTACTS / 2,
    });

    // A second compute finds nothing to change and announces nothing.
    const again = await stack.api.post(`/segments/${segmentId}/compute`, sk);
    expect(again.body).toEqual({ added: 0, removed: 0, total: CONTACTS / 2 });
  }, 240_000);

  it('answers 503 when Temporal cannot be reached, and computes nothing', async () => {
    const { sk } = await projectFixture(stack.api);
    const created = await stack.api.post('/segments', {
      ...sk,
      body: {
        name: 'Unreachable',
        filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'exists' }] },
        trackMembership: true,
      },
    });
    await withApiWithoutTemporal(stack, async (cut) => {
      const res = await cut.post(`/segments/${created.body.id}/compute`, sk);
      expect(res.status, res.text).toBe(503);
      expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
      const computes = await withDatabase(
        async (db) =>
          (
            await db.query(
              'SELECT count(*)::int AS n FROM segment_computes WHERE segment_id = $1',
              [created.body.id],
            )
          ).rows[0].n,
      );
      expect(computes).toBe(0);
    });
  }, 120_000);
});
