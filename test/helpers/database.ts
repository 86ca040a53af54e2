import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, inject } from 'vitest';
import { migrate, openOrm } from '../../db/orm.js';
import { createSql, type Sql } from '../../db/sql/sql.js';

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

/**
 * A project (no owner, no keys anyone holds) and `contacts` subscribed contacts in it, written
 * straight into the tables: database tests of triggers and statements need rows, not a stack.
 */
export async function seedProjectRows(
  sql: Sql,
  { name, contacts }: { name: string; contacts: number },
): Promise<{ projectId: string; ids: string[] }> {
  const projectId = randomUUID();
  const ids = Array.from({ length: contacts }, () => randomUUID());
  await sql.query(
    `INSERT INTO projects (id, name, public_key, secret_key_hash, secret_key_hint, settings, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'abcd', '{}', now(), now())`,
    [projectId, name, `pk_${randomUUID()}`, randomUUID()],
  );
  await sql.query(
    `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
     SELECT id, $1, id || '@example.com', true, '{}', now(), now(), now() FROM unnest($2::uuid[]) AS id`,
    [projectId, ids],
  );
  return { projectId, ids };
}

/** A pool on the test database for one test file's statements, ended after its tests. */
export function databasePool({ max }: { max: number }): { pool: pg.Pool; sql: Sql } {
  const pool = new pg.Pool({ connectionString: inject('stack').databaseUrl, max });
  afterAll(() => pool.end());
  return { pool, sql: createSql(pool) };
}

/**
 * Runs `work` on a database of its own, made and migrated for it on the test server and dropped
 * after: for statements that lock whole tables (TRUNCATE), which the other test files share.
 */
export async function withScratchDatabase<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
  const name = `scratch_${randomUUID().replaceAll('-', '')}`;
  const url = new URL(inject('stack').databaseUrl);
  await withDatabase((client) => client.query(`CREATE DATABASE ${name}`));
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  let orm: Awaited<ReturnType<typeof openOrm>> | undefined;
  try {
    orm = await openOrm({ url: url.toString() });
    await migrate(orm);
    return await work(createSql(pool));
  } finally {
    await pool.end();
    await orm?.close();
    await withDatabase((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
