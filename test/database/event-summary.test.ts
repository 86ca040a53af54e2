import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deleteEventsNamed, insertEvent } from '../../db/sql/events.sql.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';

// Event conditions of the filter language read contact_event_summary (how many events of a name
// a contact has, the first and last one's time), kept by triggers on events. Whatever statement
// writes, deletes or changes events, the summary equals what the events say.

const { pool, sql } = databasePool({ max: 4 });

interface SummaryRow {
  contact_id: string;
  name: string;
  count: string;
  first_at: Date;
  last_at: Date;
}

/** The project's summary rows, and the same figures counted from its events. */
async function summaryAndEvents(
  projectId: string,
): Promise<{ summary: SummaryRow[]; events: SummaryRow[] }> {
  const order = 'ORDER BY contact_id, name';
  const summary = await sql.query<SummaryRow>(
    `SELECT contact_id, name, count::text AS count, first_at, last_at FROM contact_event_summary
      WHERE project_id = $1 ${order}`,
    [projectId],
  );
  const events = await sql.query<SummaryRow>(
    `SELECT contact_id, name, count(*)::text AS count, min(created_at) AS first_at,
            max(created_at) AS last_at
       FROM events WHERE project_id = $1 AND contact_id IS NOT NULL
      GROUP BY contact_id, name ${order}`,
    [projectId],
  );
  return { summary, events };
}

const seedProject = (contacts: number) => seedProjectRows(sql, { name: 'summary', contacts });

const insertMany = (
  projectId: string,
  rows: { contactId: string | null; name: string; hoursAgo: number }[],
) =>
  sql.query(
    `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     SELECT uuid_generate_v7(), $1, contact_id, name, '{}', now() - make_interval(hours => ago)
       FROM unnest($2::uuid[], $3::text[], $4::int[]) AS t(contact_id, name, ago)`,
    [projectId, rows.map((r) => r.contactId), rows.map((r) => r.name), rows.map((r) => r.hoursAgo)],
  );

describe('contact_event_summary', () => {
  it('equals the events after inserts of every kind, deletes, changes and contact deletion', async () => {
    const { projectId, ids } = await seedProject(4);
    const [a, b, c, d] = ids as [string, string, string, string];
    try {
      // Several rows of one pair in one statement; pairs met again by later statements with
      // earlier and later times; a project event (no contact), which has no summary.
      await insertMany(projectId, [
        { contactId: a, name: 'purchase', hoursAgo: 5 },
        { contactId: a, name: 'purchase', hoursAgo: 50 },
        { contactId: b, name: 'purchase', hoursAgo: 1 },
        { contactId: a, name: 'login', hoursAgo: 2 },
        { contactId: null, name: 'billing.limit_warning', hoursAgo: 0 },
      ]);
      await insertMany(projectId, [
        { contactId: a, name: 'purchase', hoursAgo: 100 },
        { contactId: b, name: 'purchase', hoursAgo: 0 },
        { contactId: c, name: 'signup', hoursAgo: 3 },
      ]);
      await insertEvent(sql, { projectId, contactId: d, name: 'purchase', data: {} });
      // COPY, as bulk loads write events.
      const copied = await sql.copyFrom(
        'COPY events (id, project_id, contact_id, name, data, created_at) FROM STDIN (FORMAT csv)',
        (async function* () {
          for (const [contact, hours] of [
            [c, 7],
            [c, 1],
            [d, 30],
          ] as const) {
            const at = new Date(Date.now() - hours * 3_600_000).toISOString();
            yield `${randomUUID()},${projectId},${contact},signup,{},${at}\n`;
          }
        })(),
      );
      expect(copied).toBe(3);
      let state = await summaryAndEvents(projectId);
      expect(state.summary.length).toBe(6);
      expect(state.summary).toEqual(state.events);
      expect(state.summary.find((r) => r.contact_id === a && r.name === 'purchase')?.count).toBe(
        '3',
      );

      // One event of a pair deleted (its first), then a whole name.
      await sql.query(
        `DELETE FROM events WHERE id = (SELECT id FROM events WHERE contact_id = $1
            AND name = 'purchase' ORDER BY created_at LIMIT 1)`,
        [a],
      );
      expect((await summaryAndEvents(projectId)).summary).toEqual(
        (await summaryAndEvents(projectId)).events,
      );
      expect(await deleteEventsNamed(sql, { projectId, name: 'signup' })).toBe(4);
      state = await summaryAndEvents(projectId);
      expect(state.summary.some((r) => r.name === 'signup')).toBe(false);
      expect(state.summary).toEqual(state.events);

      // An event moved to another name, contact and time: both pairs counted again.
      await sql.query(
        `UPDATE events SET name = 'refund', contact_id = $2, created_at = created_at - interval '1 day'
          WHERE id = (SELECT id FROM events WHERE contact_id = $1 AND name = 'login')`,
        [a, b],
      );
      state = await summaryAndEvents(projectId);
      expect(state.summary.some((r) => r.contact_id === a && r.name === 'login')).toBe(false);
      expect(state.summary).toEqual(state.events);

      // A deleted contact takes its summary with it.
      await sql.query('DELETE FROM contacts WHERE id = $1', [b]);
      state = await summaryAndEvents(projectId);
      expect(state.summary.some((r) => r.contact_id === b)).toBe(false);
      expect(state.summary).toEqual(state.events);
    } finally {
      await sql.query('DELETE FROM projects WHERE id = $1', [projectId]);
    }
    expect((await summaryAndEvents(projectId)).summary).toEqual([]);
  });

  it('counts an event inserted meanwhile when a delete of its pair counts again', async () => {
    const { projectId, ids } = await seedProject(2);
    const [a, b] = ids as [string, string];
    // a: one old purchase, which the delete takes (alone, the pair would go); b: two old
    // purchases, one of which it takes (alone, the count would be 1).
    await insertMany(projectId, [
      { contactId: a, name: 'purchase', hoursAgo: 3 },
      { contactId: b, name: 'purchase', hoursAgo: 3 },
      { contactId: b, name: 'purchase', hoursAgo: 30 },
    ]);
    const inserter = await pool.connect();
    try {
      // A tracks a new purchase of each and stays open, holding both summary rows...
      await inserter.query('BEGIN');
      await inserter.query(
        `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
         SELECT uuid_generate_v7(), $1, unnest($2::uuid[]), 'purchase', '{}', now()`,
        [projectId, [a, b]],
      );
      // ...while B deletes the purchases of two to four hours ago: its count again waits for A.
      const deleting = sql.query(
        `DELETE FROM events WHERE project_id = $1 AND name = 'purchase'
            AND created_at BETWEEN now() - interval '4 hours' AND now() - interval '2 hours'`,
        [projectId],
      );
      await eventually(
        async () => {
          const [row] = await sql.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM pg_stat_activity
              WHERE wait_event_type = 'Lock' AND query LIKE 'DELETE FROM events WHERE project_id%'`,
          );
          return (row?.n ?? 0) > 0;
        },
        { what: 'the delete to wait for the open insert' },
      );
      await inserter.query('COMMIT');
      await deleting;
      const state = await summaryAndEvents(projectId);
      expect(state.summary).toEqual(state.events);
      expect(state.summary.map((r) => [r.contact_id, r.count])).toEqual(
        [
          [a, '1'],
          [b, '2'],
        ].sort((x, y) => ((x[0] as string) < (y[0] as string) ? -1 : 1)),
      );
    } finally {
      inserter.release();
      await sql.query('DELETE FROM projects WHERE id = $1', [projectId]);
    }
  });
});
