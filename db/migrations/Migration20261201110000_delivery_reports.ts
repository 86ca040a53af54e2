import { Migration } from '@mikro-orm/migrations';

/**
 * Every message that reached a return-path address (issue 30), with what became of it: the raw
 * message stays under DATA_DIR; an `undetermined` row is one that changed nothing.
 */
export class Migration20261201110000_delivery_reports extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "delivery_reports" (
      "id" uuid not null primary key,
      "project_id" uuid not null references "projects" ("id") on delete cascade,
      "email_id" uuid null,
      "recipient" text not null,
      "format" text not null check ("format" in ('dsn', 'arf', 'plain_bounce', 'auto_reply', 'unknown')),
      "outcome" text not null check ("outcome" in ('applied', 'repeated', 'ignored', 'undetermined')),
      "reason" text null,
      "storage_key" text not null,
      "created_at" timestamptz not null default now());`);
    this.addSql(
      `create index "delivery_reports_project_created_idx" on "delivery_reports" ("project_id", "created_at");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table "delivery_reports";`);
  }
}
