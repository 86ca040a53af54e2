import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { countByName, countEmailEvents } from '../../db/sql/activity.sql.js';
import { eventTimeseries } from '../../db/sql/analytics.sql.js';
import { foldEventHourShards } from '../../db/sql/email-event-hours.sql.js';
import { insertEvent } from '../../db/sql/events.sql.js';
import { listActivity } from '../../domain/insights/activity.service.js';
import { foldEventCounts } from '../../domain/insights/event-counts-fold.service.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';
import type { EmailEventName } from '../../domain/insights/activity-type.pure.js';

// The activity feed's total reads project_email_event_counts (per project, email event name and
// connection shard), the stats and time series of a window project_email_event_hours (the same
// per UTC hour), both kept by triggers on events. Whatever statement writes or deletes events,
// from however many connections, the sums equal what the events say, for any window.

const { sql } = databasePool({ max: 6 });

/** The project's kept counts by name, and the same counted from its events. */
async function keptAndCounted(
  projectId: string,
): Promise<{ kept: Record<string, number>; counted: Record<string, number> }> {
  const kept = await sql.query<{ name: string; n: number }>(
    `SELECT name, sum(count)::int AS n FROM project_email_event_counts WHERE project_id = $1
      GROUP BY name HAVING sum(count) <> 0 ORDER BY name`,
    [projectId],
  );
  const counted = await sql.query<{ name: string; n: number }>(
    `SELECT name, count(*)::int AS n FROM events WHERE project_id = $1 AND name LIKE 'email.%'
      GROUP BY name ORDER BY name`,
    [projectId],
  );
  const byName = (rows: { name: string; n: number }[]) =>
    Object.fromEntries(rows.map((r) => [r.name, r.n]));
  return { kept: byName(kept), counted: byName(counted) };
}

const seedProject = (contacts: number) => seedProjectRows(sql, { name: 'counts', contacts });

const insertMany = (projectId: string, rows: { contactId: string | null; name: string }[]) =>
  sql.query(
    `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     SELECT uuid_generate_v7(), $1, contact_id, name, '{}', now()
       FROM unnest($2::uuid[], $3::text[]) AS t(contact_id, name)`,
    [projectId, rows.map((r) => r.contactId), rows.map((r) => r.name)],
  );

describe('project_email_event_counts', () => {
  it('equals the email events after inserts from many connections, COPY, deletes and changes', async () => {
    const { projectId, ids } = await seedProject(3);
    const [a, b, c] = ids as [string, string, string];
    try {
      await insertMany(projectId, [
        { contactId: a, name: 'email.sent' },
        { contactId: b, name: 'email.sent' },
        { contactId: a, name: 'email.opened' },
        { contactId: a, name: 'purchase' },
        { contactId: null, name: 'billing.limit_warning' },
      ]);
      // Twenty statements at once over six connections: several shards of one name.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          insertEvent(sql, {
            projectId,
            contactId: ids[i % 3] as string,
            name: i % 2 ? 'email.clicked' : 'email.sent',
            data: {},
          }),
        ),
      );
      const copied = await sql.copyFrom(
        'COPY events (id, project_id, contact_id, name, data, created_at) FROM STDIN (FORMAT csv)',
        (async function* () {
          for (const contact of [c, c, b]) {
            yield `${randomUUID()},${projectId},${contact},email.bounced,{},${new Date().toISOString()}\n`;
          }
        })(),
      );
      expect(copied).toBe(3);
      let state = await keptAndCounted(projectId);
      expect(state.kept).toEqual({
        'email.bounced': 3,
        'email.clicked': 10,
        'email.opened': 1,
        'email.sent': 12,
      });
      expect(state.kept).toEqual(state.counted);
      const shards = await sql.query<{ n: number }>(
        `SELECT count(DISTINCT shard)::int AS n FROM project_email_event_counts WHERE project_id = $1`,
        [projectId],
      );
      expect(shards[0]?.n).toBeGreaterThan(1);
      expect(
        await countEmailEvents(sql, { projectId, names: ['email.sent', 'email.bounced'] }),
      ).toBe(15);

      // Deletes: some events, then a contact and (by cascade) its events.
      await sql.query(
        `DELETE FROM events WHERE project_id = $1 AND name = 'email.sent' AND contact_id = $2`,
        [projectId, b],
      );
      await sql.query('DELETE FROM contacts WHERE id = $1', [c]);
      state = await keptAndCounted(projectId);
      expect(state.kept).toEqual(state.counted);
      expect(state.kept['email.bounced']).toBe(1);

      // An event renamed moves from one count to the other; a custom name is not counted.
      await sql.query(
        `UPDATE events SET name = 'email.complained'
          WHERE id = (SELECT id FROM events WHERE project_id = $1 AND name = 'email.opened')`,
        [projectId],
      );
      state = await keptAndCounted(projectId);
      expect(state.kept['email.opened']).toBeUndefined();
      expect(state.kept['email.complained']).toBe(1);
      expect(state.kept).toEqual(state.counted);
    } finally {
      await sql.query('DELETE FROM projects WHERE id = $1', [projectId]);
    }
    // A deleted project's counts go with it, and its cascaded events write none back.
    const left = await sql.query(`SELECT 1 FROM project_email_event_counts WHERE project_id = $1`, [
      projectId,
    ]);
    expect(left).toEqual([]);
  });

  it('keeps projects apart', async () => {
    const one = await seedProject(1);
    const two = await seedProject(1);
    try {
      await insertMany(one.projectId, [{ contactId: one.ids[0]!, name: 'email.sent' }]);
      expect(await countEmailEvents(sql, { projectId: one.projectId, names: ['email.sent'] })).toBe(
        1,
      );
      expect(await countEmailEvents(sql, { projectId: two.projectId, names: ['email.sent'] })).toBe(
        0,
      );
    } finally {
      await sql.query('DELETE FROM projects WHERE id = ANY($1::uuid[])', [
        [one.projectId, two.projectId],
      ]);
    }
  });

  it('counts any window as the events do: whole hours kept, partial ones counted', async () => {
    const { projectId, ids } = await seedProject(2);
    const HOUR = 3_600_000;
    const start = Math.floor(Date.now() / HOUR) * HOUR - 50 * HOUR;
    try {
      // 400 events over 52 hours at whole seconds, some exactly on an hour, over two statements.
      const at = (i: number) => new Date(start + ((i * 7_919_000) % (52 * HOUR)));
      const rows = Array.from({ length: 400 }, (_, i) => ({
        contactId: ids[i % 2] as string,
        name: i % 3 ? 'email.sent' : 'email.opened',
        at: i % 40 === 0 ? new Date(start + (i / 40) * HOUR) : at(i),
      }));
      for (const part of [rows.slice(0, 150), rows.slice(150)]) {
        await sql.query(
          `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
           SELECT uuid_generate_v7(), $1, contact_id, name, '{}', at
             FROM unnest($2::uuid[], $3::text[], $4::timestamptz[]) AS t(contact_id, name, at)`,
          [projectId, part.map((r) => r.contactId), part.map((r) => r.name), part.map((r) => r.at)],
        );
      }
      // Some go again, so the kept hours hold deltas of both signs.
      await sql.query(
        `DELETE FROM events WHERE project_id = $1 AND contact_id = $2 AND name = 'email.opened'`,
        [projectId, ids[0]],
      );
      const names: EmailEventName[] = ['email.sent', 'email.opened'];
      const counted = async (from: Date, to: Date) =>
        Object.fromEntries(
          (
            await sql.query<{ name: string; n: number }>(
              `SELECT name, count(*)::int AS n FROM events WHERE project_id = $1
                  AND name = ANY($2::text[]) AND created_at >= $3 AND created_at < $4 GROUP BY name`,
              [projectId, names, from, to],
            )
          ).map((r) => [r.name, r.n]),
        );
      const windows: [number, number][] = [
        [start, start + 52 * HOUR], // every event, aligned at both ends
        [start + 1_234_000, start + 30 * HOUR + 5_000], // partial at both ends
        [start + 2 * HOUR, start + 2 * HOUR + 1_800_000], // inside one hour, aligned start
        [start + 3 * HOUR + 60_000, start + 3 * HOUR + 3_000_000], // inside one hour
        [start + 5 * HOUR + 1, start + 6 * HOUR], // ends on an hour
        [start + 7 * HOUR, start + 7 * HOUR], // empty
      ];
      for (const [from, to] of windows) {
        const window = { from: new Date(from), to: new Date(to) };
        const expected = await counted(window.from, window.to);
        expect(await countByName(sql, { projectId, names, ...window }), `${from}-${to}`).toEqual(
          expected,
        );
        // The feed's total over the window reads the same kept hours.
        const feed = await listActivity({
          sql,
          projectId,
          types: ['sent', 'opened'],
          limit: 1,
          ...window,
        });
        expect(feed.total, `feed ${from}-${to}`).toBe(
          Object.values(expected).reduce((a, b) => a + b, 0),
        );
      }
      // Time series by hour and by day: each bucket as the events say.
      const from = new Date(start + 1_234_000);
      const to = new Date(start + 51 * HOUR + 42_000);
      const UNIT = { hour: HOUR, day: 24 * HOUR, week: 7 * 24 * HOUR };
      for (const granularity of ['hour', 'day', 'week'] as const) {
        const series = await eventTimeseries(sql, { projectId, names, from, to, granularity });
        const unit = UNIT[granularity];
        expect(series.length).toBeGreaterThan(granularity === 'week' ? 0 : 1);
        for (const { bucket, counts } of series) {
          const bucketStart = Math.max(new Date(bucket).getTime(), from.getTime());
          const bucketEnd = Math.min(new Date(bucket).getTime() + unit, to.getTime());
          expect(counts, `${granularity} ${new Date(bucket).toISOString()}`).toEqual(
            await counted(new Date(bucketStart), new Date(bucketEnd)),
          );
        }
        const sum = series.reduce((n, b) => n + (b.counts['email.sent'] ?? 0), 0);
        expect(sum).toBe((await counted(from, to))['email.sent']);
      }
    } finally {
      await sql.query('DELETE FROM projects WHERE id = $1', [projectId]);
    }
    const left = await sql.query(`SELECT 1 FROM project_email_event_hours WHERE project_id = $1`, [
      projectId,
    ]);
    expect(left).toEqual([]);
  });
});

describe('folding the hourly shards', () => {
  const HOUR = 3_600_000;
  /** The project's hourly rows: how many per name and hour, and their sum. */
  const hourRows = (projectId: string) =>
    sql.query<{ name: string; hour: Date; rows: number; shards: number[]; n: number }>(
      `SELECT name, hour, count(*)::int AS rows, array_agg(shard ORDER BY shard) AS shards,
              sum(count)::int AS n
         FROM project_email_event_hours WHERE project_id = $1
        GROUP BY name, hour ORDER BY name, hour`,
      [projectId],
    );
  /** The same counted from the events. */
  const eventHours = (projectId: string) =>
    sql.query<{ name: string; hour: Date; n: number }>(
      `SELECT name, date_trunc('hour', created_at, 'UTC') AS hour, count(*)::int AS n
         FROM events WHERE project_id = $1 AND name LIKE 'email.%'
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [projectId],
    );
  /** `count` statements at once over the pool's six connections, each one event at `at`. */
  const insertFromManyConnections = (
    projectId: string,
    contactId: string,
    at: Date,
    count: number,
  ) =>
    Promise.all(
      Array.from({ length: count }, (_, i) =>
        sql.query(
          `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
           VALUES (uuid_generate_v7(), $1, $2, $3, '{}', $4)`,
          [projectId, contactId, i % 2 ? 'email.opened' : 'email.sent', at],
        ),
      ),
    );

  it('leaves one row per name and finished hour, the same sums, the current hours to their writers', async () => {
    const { projectId, ids } = await seedProject(1);
    const now = Date.now();
    const thisHour = Math.floor(now / HOUR) * HOUR;
    const old = new Date(thisHour - 30 * HOUR + 1_000);
    const older = new Date(thisHour - 3 * HOUR + 59_000);
    const lastHour = new Date(thisHour - HOUR + 5_000);
    try {
      for (const at of [old, older, lastHour, new Date(now)]) {
        await insertFromManyConnections(projectId, ids[0] as string, at, 24);
      }
      const spread = await hourRows(projectId);
      expect(spread.filter((r) => r.rows > 1).length).toBeGreaterThan(0);

      // Batches of three rows: the fold goes on until a batch comes back short.
      const moved: number[] = [];
      await foldEventCounts({ sql, now: new Date(now), batch: 3, progress: (n) => moved.push(n) });
      expect(moved.length).toBeGreaterThan(1);

      const folded = await hourRows(projectId);
      expect(folded.map(({ name, hour, n }) => ({ name, hour, n }))).toEqual(
        await eventHours(projectId),
      );
      for (const row of folded) {
        if (row.hour.getTime() < thisHour - HOUR)
          expect(row.shards, `${row.hour.toISOString()}`).toEqual([0]);
      }
      // The hour under way and the one just ended keep their writers' shards.
      const recent = (rows: typeof spread) =>
        rows.filter((r) => r.hour.getTime() >= thisHour - HOUR);
      expect(recent(folded)).toEqual(recent(spread));

      // The windows read the folded rows as they read the shards.
      const names: EmailEventName[] = ['email.sent', 'email.opened'];
      const window = { from: new Date(thisHour - 40 * HOUR), to: new Date(now + 1) };
      expect(await countByName(sql, { projectId, names, ...window })).toEqual({
        'email.sent': 48,
        'email.opened': 48,
      });
    } finally {
      await sql.query('DELETE FROM projects WHERE id = $1', [projectId]);
    }
  });

  it('loses nothing that writers add or take away while it folds', async () => {
    const { projectId, ids } = await seedProject(2);
    const thisHour = Math.floor(Date.now() / HOUR) * HOUR;
    const at = (h: number) => new Date(thisHour - h * HOUR + 17_000);
    try {
      for (const h of [5, 6, 7])
        await insertFromManyConnections(projectId, ids[0] as string, at(h), 30);
      // Writers to the same hours (and deletions from them) while folds of one row at a time run.
      const before = new Date(thisHour - HOUR);
      let folding = true;
      const folds = (async () => {
        let rounds = 0;
        while (folding || rounds === 0) {
          await foldEventHourShards(sql, { before, limit: 1 });
          rounds += 1;
        }
        return rounds;
      })();
      for (const h of [5, 6, 7, 5]) {
        await Promise.all([
          insertFromManyConnections(projectId, ids[1] as string, at(h), 12),
          sql.query(
            `DELETE FROM events WHERE id IN (SELECT id FROM events
               WHERE project_id = $1 AND contact_id = $2 AND created_at = $3 LIMIT 4)`,
            [projectId, ids[0], at(h)],
          ),
        ]);
      }
      folding = false;
      expect(await folds).toBeGreaterThan(0);
      await foldEventCounts({ sql, now: new Date() });

      const folded = await hourRows(projectId);
      expect(folded.map(({ name, hour, n }) => ({ name, hour, n }))).toEqual(
        await eventHours(projectId),
      );
      expect(folded.every((r) => r.rows === 1 && r.shards[0] === 0)).toBe(true);
      expect(folded.reduce((n, r) => n + r.n, 0)).toBe(90 + 48 - 16);
    } finally {
      await sql.query('DELETE FROM projects WHERE id = $1', [projectId]);
    }
  });
});
