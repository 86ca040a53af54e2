import { Migration } from '@mikro-orm/migrations';

export class Migration20261121120000_email_dispatch extends Migration {
  override async up(): Promise<void> {
    // Set once the email's send-email workflow has started; the dispatcher starts the rest.
    this.addSql(`alter table "emails" add column "dispatched_at" timestamptz null;`);
    this.addSql(
      `create index "emails_undispatched_index" on "emails" ("created_at") where "status" = 'QUEUED' and "dispatched_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "emails_undispatched_index";`);
    this.addSql(`alter table "emails" drop column "dispatched_at";`);
  }
}
