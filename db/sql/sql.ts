import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';

/**
 * Hand-written SQL over the `pg` driver with server-side bind parameters ($1, $2...). Hot
 * statements pass a `name` and are prepared once per connection. MikroORM keeps the entities;
 * set-based and hot-path statements come through here, without its query building.
 */
export interface Sql {
  query<T = Record<string, unknown>>(text: string, params?: unknown[], name?: string): Promise<T[]>;
  /** Runs `work` in one transaction on one connection; a thrown error rolls it back. */
  transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `work` on one connection held throughout, its statements committing one by one; for
   * a statement that must run the moment something outside happens, without waiting for the pool.
   */
  connection<T>(work: (held: Sql) => Promise<T>): Promise<T>;
  /**
   * Runs `text` (a `COPY ... FROM STDIN`) with `chunks` as its data, streamed with backpressure;
   * answers the rows copied. An error thrown by `chunks` aborts the COPY.
   */
  copyFrom(text: string, chunks: AsyncIterable<string>): Promise<number>;
}

/** Parameters of a statement over the caller's project: its id, and the ids named in `K`. */
export type InProject<K extends string = never> = { projectId: string } & Record<K, string>;

/** A lane's claim: up to `limit` due rows of `queue`, each its own for `leaseSeconds`. */
export type LaneClaim = { queue: string; limit: number; leaseSeconds: number };

type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

async function inTransaction<T>(client: pg.PoolClient, work: (tx: Sql) => Promise<T>): Promise<T> {
  try {
    await client.query('BEGIN');
    const result = await work(over(client, 'transaction'));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * Runs `work` on a client taken from the pool. The pool hears a client's errors only while it
 * is idle; a held client whose connection fails between statements (the server stopping) would
 * emit an unheard 'error' and end the process. Heard here, the next statement fails instead,
 * and the broken client is dropped rather than returned to the pool.
 */
async function checkedOut<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let failed: Error | undefined;
  const onError = (error: Error): void => {
    failed = error;
  };
  client.on('error', onError);
  try {
    return await work(client);
  } finally {
    client.off('error', onError);
    client.release(failed);
  }
}

function over(client: Queryable, mode: 'pool' | 'held' | 'transaction'): Sql {
  return {
    async query<T>(text: string, params: unknown[] = [], name?: string): Promise<T[]> {
      const result = await client.query<T & pg.QueryResultRow>(
        name ? { name, text, values: params } : { text, values: params },
      );
      return result.rows;
    },
    async transaction<T>(work: (tx: Sql) => Promise<T>): Promise<T> {
      if (mode === 'transaction') return work(this); // already inside one
      if (mode === 'held') return inTransaction(client as pg.PoolClient, work);
      return checkedOut(client as pg.Pool, (connection) => inTransaction(connection, work));
    },
    async connection<T>(work: (held: Sql) => Promise<T>): Promise<T> {
      if (mode !== 'pool') return work(this);
      return checkedOut(client as pg.Pool, (connection) => work(over(connection, 'held')));
    },
    async copyFrom(text: string, chunks: AsyncIterable<string>): Promise<number> {
      const copy = async (connection: pg.PoolClient): Promise<number> => {
        const stream = connection.query(copyFromStdin(text));
        await pipeline(Readable.from(chunks, { objectMode: false }), stream);
        return stream.rowCount;
      };
      if (mode === 'pool') return checkedOut(client as pg.Pool, copy);
      return copy(client as pg.PoolClient);
    },
  };
}

export function createSql(pool: pg.Pool): Sql {
  return over(pool, 'pool');
}

/**
 * `asynchronousCommit` answers a commit before its WAL reaches disk: a PostgreSQL crash may lose
 * the last fraction of a second of commits (never corrupt anything). Only for writes whose loss
 * is made good by doing them again, such as marking an email SENT (it would be sent again).
 */
export function createSqlPool({
  url,
  max,
  asynchronousCommit = false,
  taskQueue,
  onIdleError = () => undefined,
}: {
  url: string;
  max: number;
  asynchronousCommit?: boolean;
  /**
   * The task queue of this process: events its sessions record are dispatched by that queue's
   * dispatcher (the events table's trigger reads it as `mailwright.task_queue`).
   */
  taskQueue?: string;
  /** An idle connection failed (the server restarting or stopping); the pool drops it. */
  onIdleError?: (error: Error) => void;
}): pg.Pool {
  const options = [
    ...(asynchronousCommit ? ['-c synchronous_commit=off'] : []),
    ...(taskQueue === undefined ? [] : [`-c ${TASK_QUEUE_SETTING}=${escapeOption(taskQueue)}`]),
  ];
  const pool = new pg.Pool({
    connectionString: url,
    max,
    options: options.length > 0 ? options.join(' ') : undefined,
  });
  // Unheard, an idle client's 'error' event would end the process.
  pool.on('error', onIdleError);
  return pool;
}

/** The session setting naming the task queue whose dispatcher takes the session's events. */
export const TASK_QUEUE_SETTING = 'mailwright.task_queue';

// libpq splits `options` on spaces; a backslash keeps a space or backslash in the value.
const escapeOption = (value: string): string => value.replace(/[\\ ]/g, (c) => `\\${c}`);

export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505'
  );
}
