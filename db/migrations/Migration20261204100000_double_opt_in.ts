import { Migration } from '@mikro-orm/migrations';

/**
 * Double opt-in (issue 26): each project's setting (`{enabled, templateId}`, defaults in
 * domain/contacts/double-opt-in-settings.pure.ts), and on each contact when a confirmation was
 * last asked for and when one was given. Waiting for a confirmation is read from these with
 * `subscribed` and `subscription_changed_at` (db/sql/opt-in-state.sql.ts), so every other write
 * of `subscribed` stays as it is. Nullable columns without a default: no table rewrite.
 */
export class Migration20261204100000_double_opt_in extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "projects" add column "double_opt_in" jsonb not null default '{}'::jsonb;`,
    );
    this.addSql(`alter table "contacts"
      add column "opt_in_requested_at" timestamptz null,
      add column "opt_in_confirmed_at" timestamptz null;`);
    // The contacts list filtered on `pending`: only contacts ever asked are in it.
    this.addSql(
      `create index "contacts_opt_in_requested_index" on "contacts" ("project_id", "id") where "opt_in_requested_at" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "contacts_opt_in_requested_index";`);
    this.addSql(
      `alter table "contacts" drop column "opt_in_requested_at", drop column "opt_in_confirmed_at";`,
    );
    this.addSql(`alter table "projects" drop column "double_opt_in";`);
  }
}
