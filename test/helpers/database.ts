import pg from 'pg';
import { inject } from 'vitest';

/** Direct SQL for arranging rows no HTTP route creates yet; assertions still go through HTTP. */
export async function withDatabase<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: inject('stack').databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** How many of the emails `ids` are SENT now. */
export async function countSentEmails(ids: readonly string[]): Promise<number> {
  return withDatabase(
    async (db) =>
      (
        await db.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM emails WHERE id = ANY($1::uuid[]) AND status = 'SENT'`,
          [ids],
        )
      ).rows[0]?.n ?? 0,
  );
}
