import { defineConfig } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './entities/index.js';
import { migrationsList } from './migrations/index.js';

export function createOrmConfig({ url, poolMax = 10 }: { url: string; poolMax?: number }) {
  return defineConfig({
    clientUrl: url,
    entities,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    pool: { min: 0, max: poolMax },
    // Migrations are listed in code so the same list runs under tsx, in tests and when bundled.
    migrations: {
      migrationsList,
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
