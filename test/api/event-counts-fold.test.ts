import { Client as TemporalClient, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { databasePool } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { keepHistoryOfCompletedRun } from '../helpers/histories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

// The activity stats and analytics series read the hourly email event counts, which concurrent
// writers keep in up to 16 shards an hour; the `event-counts-fold` schedule makes each finished
// hour one row again, and the figures stay what the events say.

const HOUR = 3_600_000;
const { sql } = databasePool({ max: 6 });
let stack: TestStack;

beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe('the event-counts-fold schedule', () => {
  it('folds the shards of finished hours without changing a figure', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const created = await stack.api.post('/contacts', {
      ...sk,
      body: { email: `fold-${Date.now()}@example.com` },
    });
    expect(created.status, created.text).toBe(201);
    // Email events three hours ago, recorded over six connections at once (several shards).
    const at = new Date(Math.floor(Date.now() / HOUR) * HOUR - 3 * HOUR + 60_000);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        sql.query(
          `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
           VALUES (uuid_generate_v7(), $1, $2, $3, '{}', $4)`,
          [project.id, created.body.id, i % 3 ? 'email.sent' : 'email.opened', at],
        ),
      ),
    );
    const rows = () =>
      sql.query<{ shard: number }>(
        'SELECT shard FROM project_email_event_hours WHERE project_id = $1 ORDER BY name, shard',
        [project.id],
      );
    expect((await rows()).length).toBeGreaterThan(2);
    const window = `from=${new Date(at.getTime() - HOUR).toISOString()}&to=${new Date().toISOString()}`;
    const before = await stack.api.get(`/activity/stats?${window}`, sk);
    expect(before.status, before.text).toBe(200);
    expect(before.body.counts).toMatchObject({ sent: 20, opened: 10 });

    const connection = await Connection.connect({ address: inject('stack').temporalAddress });
    try {
      const schedule = new TemporalClient({ connection }).schedule.getHandle(
        `event-counts-fold-${stack.env.TEMPORAL_TASK_QUEUE}`,
      );
      const description = await schedule.describe();
      expect(description.spec.intervals?.[0]?.every).toBe(8760 * 3600 * 1000);
      expect(description.action).toMatchObject({ workflowType: 'foldEventCounts' });
      await schedule.trigger();
      let shards: number[] = [];
      await eventually(
        async () => {
          shards = (await rows()).map((r) => r.shard);
          return shards.length === 2 && shards.every((s) => s === 0);
        },
        { what: 'one row per name, in shard 0', describe: () => shards.join(', ') },
      );
      const after = await stack.api.get(`/activity/stats?${window}`, sk);
      expect(after.body).toEqual(before.body);
      const series = await stack.api.get(`/analytics/timeseries?granularity=hour&${window}`, sk);
      expect(series.status, series.text).toBe(200);
      const bucket = series.body.buckets.find(
        (b: { start: string }) => b.start === new Date(at.getTime() - 60_000).toISOString(),
      );
      expect(bucket).toMatchObject({ sent: 20, opened: 10 });
      await keepHistoryOfCompletedRun(
        'fold-event-counts',
        'foldEventCounts',
        stack.env.TEMPORAL_TASK_QUEUE as string,
      );
    } finally {
      await connection.close();
    }
  });
});
