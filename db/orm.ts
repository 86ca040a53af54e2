import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from './mikro-orm.config.js';
import { type QueryRunner, syncVocabularyChecks } from './vocabulary-checks.js';

export type Orm = MikroORM;

export async function openOrm({ url, poolMax }: { url: string; poolMax?: number }): Promise<Orm> {
  return MikroORM.init(createOrmConfig({ url, poolMax }));
}

// Any constant works; it only has to be the same for every process running migrations.
const MIGRATION_LOCK = 724_531_001;

/**
 * Several API replicas may start at once; an advisory lock lets exactly one migrate. After the
 * migrations, the CHECK lists of vocabulary columns are brought in line with the vocabularies.
 */
export async function migrate(orm: Orm): Promise<void> {
  const knex = orm.em.getConnection().getKnex();
  const connection = await knex.client.acquireConnection();
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await orm.getMigrator().up();
      await syncVocabularyChecks(connection as QueryRunner);
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
