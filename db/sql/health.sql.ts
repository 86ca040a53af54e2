import type { Sql } from './sql.js';

/** True when PostgreSQL answers a query on this pool. */
export async function databaseAnswers(sql: Sql): Promise<boolean> {
  return sql.query('SELECT 1').then(
    () => true,
    () => false,
  );
}
