import { MikroORM } from '@mikro-orm/postgresql';
import { createOrmConfig } from './mikro-orm.config.js';
import { type QueryRunner, syncVocabularyChecks } from './vocabulary-checks.js';

export type Orm = MikroORM;

export async function openOrm({ url, poolMax }: { url: string; poolMax?: number }): Promise<Orm> {
  return MikroORM.init(createOrmConfig({ url, poolMax }));
}

// Any constants work; each only has to be the same for every process that takes it.
const ADVISORY_LOCKS = {
  migrations: 724_531_001,
  /** Registering the Temporal namespace and its search attributes (worker start-up). */
  temporalSetup: 724_531_002,
} as const;

/**
 * Runs `run` while holding a session-level PostgreSQL advisory lock, so that of several replicas
 * starting at once exactly one does it at a time.
 */
export async function withAdvisoryLock<T>(
  orm: Orm,
  lock: keyof typeof ADVISORY_LOCKS,
  run: (connection: QueryRunner) => Promise<T>,
): Promise<T> {
  const knex = orm.em.getConnection().getKnex();
  const connection = await knex.client.acquireConnection();
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS[lock]]);
    try {
      return await run(connection as QueryRunner);
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS[lock]]);
    }
  } finally {
    await knex.client.releaseConnection(connection);
  }
}

/**
 * Loads the migrator and the migrations into `orm`. Only the processes that migrate (the API,
 * `npm start`) load them: the worker never does, and ~17 MB of modules stay out of its memory.
 */
export async function registerMigrator(orm: Orm): Promise<void> {
  const [{ Migrator }, { migrationsList }] = await Promise.all([
    import('@mikro-orm/migrations'),
    import('./migrations/index.js'),
  ]);
  orm.config.set('migrations', { ...orm.config.get('migrations'), migrationsList });
  Migrator.register(orm);
}

/**
 * Several API replicas may start at once; an advisory lock lets exactly one migrate. After the
 * migrations, the CHECK lists of vocabulary columns are brought in line with the vocabularies.
 */
export async function migrate(orm: Orm): Promise<void> {
  await registerMigrator(orm);
  await withAdvisoryLock(orm, 'migrations', async (connection) => {
    await orm.getMigrator().up();
    await syncVocabularyChecks(connection);
  });
}
