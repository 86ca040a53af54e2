import { Migration } from '@mikro-orm/migrations';

/** The return-path host a domain's MX check found in place, and its SPF (issue 30). */
export class Migration20261201100000_return_path extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "domains" add column "return_path_host" text null;`);
    this.addSql(
      `alter table "domains" add column "return_path_spf_verified" boolean not null default false;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "domains" drop column "return_path_host";`);
    this.addSql(`alter table "domains" drop column "return_path_spf_verified";`);
  }
}
