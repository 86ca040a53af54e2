import { Migration } from '@mikro-orm/migrations';

/**
 * The suppression list people manage: each entry gets an id (its page's keyset), the source and
 * evidence of the bounce or complaint that put it there, and the email it came from; emails
 * remember their first soft bounce (counted per address for the soft-bounce policy), and each
 * project has its bounce policy (defaults in domain/sending/bounce-policy.pure.ts).
 */
export class Migration20261130100000_suppressions extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "suppressions"
      add column "id" uuid not null default gen_random_uuid(),
      add column "source" text null,
      add column "detail" jsonb null,
      add column "email_id" uuid null;`);
    this.addSql(`create unique index "suppressions_id_unique" on "suppressions" ("id");`);
    this.addSql(
      `create index "suppressions_project_listing_index" on "suppressions" ("project_id", "created_at" desc, "id" desc);`,
    );
    this.addSql(
      `alter table "suppressions" add constraint "suppressions_reason_check" check ("reason" in ('hard_bounce', 'complaint', 'soft_bounce'));`,
    );
    this.addSql(`alter table "emails" add column "soft_bounced_at" timestamptz null;`);
    this.addSql(
      `create index "emails_soft_bounces_index" on "emails" ("project_id", "to_address", "soft_bounced_at") where "soft_bounced_at" is not null;`,
    );
    this.addSql(
      `alter table "projects" add column "bounce_policy" jsonb not null default '{}'::jsonb;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "projects" drop column "bounce_policy";`);
    this.addSql(`drop index if exists "emails_soft_bounces_index";`);
    this.addSql(`alter table "emails" drop column "soft_bounced_at";`);
    this.addSql(`alter table "suppressions" drop constraint "suppressions_reason_check";`);
    this.addSql(`drop index if exists "suppressions_project_listing_index";`);
    this.addSql(`drop index if exists "suppressions_id_unique";`);
    this.addSql(`alter table "suppressions"
      drop column "id", drop column "source", drop column "detail", drop column "email_id";`);
  }
}
