import pg from 'pg';

/**
 * Hand-written SQL over the `pg` driver with server-side bind parameters ($1, $2...). Hot
 * statements pass a `name` and are prepared once per connection. MikroORM keeps the entities;
 * set-based and hot-path statements come through here, without its query building.
 */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<T[]>;
  /** Runs `work` in one transaction on one connection; a thrown error rolls it back. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
}

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

function over(client: Queryable, pool?: pg.Pool): Sql {
  return {
    async query<T>(text: string, params: unknown[] = [], name?: string): Promise<T[]> {
      const result = await client.query<T & pg.QueryResultRow>(
        name ? { name, text, values: params } : { text, values: params },
      );
      return result.rows;
    },
    async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
      if (!pool) return work(this); // already inside one
      const connection = await pool.connect();
      try {
        await connection.query('BEGIN');
        const result = await work(over(connection));
        await connection.query('COMMIT');
        return result;
      } catch (error) {
        await connection.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        connection.release();
      }
    },
  };
}

export function createSql(pool: pg.Pool): Sql {
  return over(pool, pool);
}

export function createSqlPool({ url, max }: { url: string; max: number }): pg.Pool {
  return new pg.Pool({ connectionString: url, max });
}

export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505'
  );
}
