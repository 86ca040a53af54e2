import { defineConfig } from '@mikro-orm/postgresql';
import { entities } from './entities/index.js';

export function createOrmConfig({ url, poolMax = 10 }: { url: string; poolMax?: number }) {
  return defineConfig({
    clientUrl: url,
    entities,
    discovery: { warnWhenNoEntities: false },
    pool: { min: 0, max: poolMax },
    // Migrations are listed in code (db/migrations/index.ts) so the same list runs under tsx, in
    // tests and when bundled; `migrate` loads the list and the migrator when it runs (orm.ts).
    migrations: {
      path: 'db/migrations',
      pathTs: 'db/migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    allowGlobalContext: false,
    debug: false,
  });
}
