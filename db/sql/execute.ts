import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * Runs hand-written SQL (knex bindings: `?` for values, `\\?` for the jsonb key operator) on the
 * entity manager's connection, inside its transaction when it has one. Driver errors come back
 * as MikroORM's exceptions (UniqueConstraintViolationException, ...), as they do for the ORM.
 */
export async function runSql<T = Record<string, unknown>>(
  em: EntityManager,
  sql: string,
  params: unknown[] = [],
): Promise<T[]> {
  try {
    return await em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
  } catch (error) {
    throw error instanceof Error ? em.getDriver().convertException(error) : error;
  }
}
