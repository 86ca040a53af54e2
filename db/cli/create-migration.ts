// Writes a migration for the difference between the entities and the database at DATABASE_URL
// (run it against a database migrated to the latest committed migration), then add the new class
// to db/migrations/index.ts.
import { openOrm, migrate } from '../orm.js';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('Set DATABASE_URL to a scratch database');
const orm = await openOrm({ url });
await migrate(orm);
const result = await orm.getMigrator().createMigration('db/migrations', false, false);
console.log(result.fileName ? `wrote ${result.fileName}` : 'no changes');
console.log(result.code);
await orm.close();
