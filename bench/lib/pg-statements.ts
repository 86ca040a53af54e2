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
  await withClient(databaseUrl, (db) => db.query('SELECT pg_stat_statements_reset()'));
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
    return rows
      .map(
        (r) =>
          `${String(r.ms).padStart(7)} ms ${r.plan_ms > 0 ? `(+${r.plan_ms} ms planning) ` : ''}${String(r.calls).padStart(7)} calls ${String(r.max_ms).padStart(7)} ms at most  ${r.query}`,
      )
      .join('\n');
  });
}
