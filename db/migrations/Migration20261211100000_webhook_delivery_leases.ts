import { Migration } from '@mikro-orm/migrations';

/**
 * A lane's claim on a delivery is its own column, in no index: the claim used to push
 * `next_attempt_at` (a key of the due index) into the future, so every claim wrote a new row
 * version into each of the table's indexes. Now it writes only `leased_until`, and with room
 * left on each page (fillfactor) the claim is a HOT update: no index is touched.
 */
export class Migration20261211100000_webhook_delivery_leases extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" add column "leased_until" timestamptz null;`);
    this.addSql(`alter table "webhook_deliveries" set (fillfactor = 80);`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "webhook_deliveries" reset (fillfactor);`);
    this.addSql(`alter table "webhook_deliveries" drop column "leased_until";`);
  }
}
