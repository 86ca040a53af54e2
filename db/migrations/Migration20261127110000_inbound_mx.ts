import { Migration } from '@mikro-orm/migrations';

/** Whether a domain's MX names the installation's inbound host (reported, never required). */
export class Migration20261127110000_inbound_mx extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "domains" add column "mx_verified" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "domains" drop column "mx_verified";`);
  }
}
