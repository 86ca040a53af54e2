import { Migration } from '@mikro-orm/migrations';

/**
 * The emails table becomes the delivery queue. Workers claim QUEUED rows of their queue (the
 * Temporal task queue of the API that accepted them) under a lease, deliver them in batches, and
 * hand an email that needs retrying to its own send-email workflow (`workflow_started_at`, the
 * former `dispatched_at`: set once that workflow has started).
 */
export class Migration20261121140000_email_delivery_queue extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table "emails" rename column "dispatched_at" to "workflow_started_at";`);
    this.addSql(
      `alter table "emails" add column "delivery_queue" text not null default 'mailwright', add column "claimed_by" text null, add column "claimed_until" timestamptz null;`,
    );
    this.addSql(`drop index if exists "emails_undispatched_index";`);
    this.addSql(
      `create index "emails_deliverable_index" on "emails" ("delivery_queue", "created_at") where "status" = 'QUEUED' and "workflow_started_at" is null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "emails_deliverable_index";`);
    this.addSql(
      `alter table "emails" drop column "delivery_queue", drop column "claimed_by", drop column "claimed_until";`,
    );
    this.addSql(`alter table "emails" rename column "workflow_started_at" to "dispatched_at";`);
    this.addSql(
      `create index "emails_undispatched_index" on "emails" ("created_at") where "status" = 'QUEUED' and "dispatched_at" is null;`,
    );
  }
}
