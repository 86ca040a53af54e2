// With BENCH_PG_STATEMENTS=1 (pg_stat_statements loaded by startBenchStack): where PostgreSQL's
// time went, by statement, heaviest first, since the last reset. Planning time shows too when
// it is counted (BENCH_PG_SETTINGS=pg_stat_statements.track_planning=on); statements run by
// triggers are counted apart with pg_stat_statements.track=all; BENCH_PG_TOP lines (12).
import pg from 'pg';

const enabled = (): boolean => process.env.BENCH_PG_STATEMENTS === '1';

async function withClient<T>(databaseUrl: string, use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
    return await use(db);
  } finally {
    await db.end();
  }
}

/** Forgets what was counted so far (a bench's set-up), when statements are being counted. */
export async function resetStatements(databaseUrl: string): Promise<void> {
  if (!enabled()) return;
  await withClient(databaseUrl, (db) =>
    db.query("SELECT pg_stat_statements_reset(), pg_stat_reset_shared('wal')"),
  );
}

/** The top `limit` statements by total time, one line each; undefined when not counted. */
export async function topStatements(databaseUrl: string, limit = 12): Promise<string | undefined> {
  if (!enabled()) return undefined;
  return withClient(databaseUrl, async (db) => {
    const { rows } = await db.query(
      `SELECT calls, round(total_exec_time)::int AS ms, round(total_plan_time)::int AS plan_ms,
              round(max_exec_time::numeric, 1)::float8 AS max_ms,
              left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
         FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT $1`,
      [Number(process.env.BENCH_PG_TOP ?? limit)],
    );
    // How often a backend found the WAL buffers full and wrote them out itself, and how often
    // WAL was written and flushed, since the last reset: stalls inside statements show here.
    const wal = (
      await db.query(
        `SELECT w.wal_records, w.wal_buffers_full, w.wal_write, w.wal_sync,
                c.num_timed + c.num_requested AS checkpoints, c.num_requested AS requested
           FROM pg_stat_wal w, pg_stat_checkpointer c`,
      )
    ).rows[0];
    const head = `WAL: ${wal.wal_records} records, buffers full ${wal.wal_buffers_full} times, ${wal.wal_write} writes, ${wal.wal_sync} syncs; checkpoints since the server started: ${wal.checkpoints} (${wal.requested} requested)`;
    return [
      head,
      ...rows.map(
        (r) =>
          `${String(r.ms).padStart(7)} ms ${r.plan_ms > 0 ? `(+${r.plan_ms} ms planning) ` : ''}${String(r.calls).padStart(7)} calls ${String(r.max_ms).padStart(7)} ms at most  ${r.query}`,
      ),
    ].join('\n');
  });
}

/**
 * Samples what PostgreSQL's active backends wait on every `everyMs` until stopped; stop()
 * answers the counts (`CPU` when a backend waits on nothing), most first, one line. Undefined
 * (and no sampling) when statements are not being counted.
 */
export function sampleWaits(
  databaseUrl: string,
  everyMs = 20,
): { stop: () => Promise<string | undefined> } {
  if (!enabled()) return { stop: async () => undefined };
  const counts = new Map<string, number>();
  let running = true;
  const sampling = withClient(databaseUrl, async (db) => {
    while (running) {
      const { rows } = await db.query<{ wait: string }>(
        `SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') AS wait FROM pg_stat_activity
          WHERE state = 'active' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      for (const { wait } of rows) counts.set(wait, (counts.get(wait) ?? 0) + 1);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  });
  return {
    stop: async () => {
      running = false;
      await sampling;
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return `backends' waits (${total} samples): ${[...counts]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 12)
        .map(([wait, n]) => `${wait} ${((100 * n) / total).toFixed(1)}%`)
        .join(', ')}`;
    },
  };
}
