import { Migration } from '@mikro-orm/migrations';

/**
 * Campaigns: the campaign, its recipients (the audience as snapshotted when the send began, one
 * row per contact), and the emails it queues, one per campaign and contact however often a batch
 * is retried. Emails learn CANCELLED (a campaign's mail that was never handed to SMTP) and when
 * they were first opened, clicked and unsubscribed from, so campaign stats count rows.
 */
export class Migration20261125100000_campaigns extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "campaigns" (
      "id" uuid not null,
      "project_id" uuid not null,
      "name" text not null,
      "description" text null,
      "subject" text not null,
      "body" text not null,
      "from_address" text not null,
      "from_name" text null,
      "reply_to" text null,
      "template_id" uuid null,
      "audience_type" text check ("audience_type" in ('ALL', 'SEGMENT', 'FILTERED')) not null,
      "segment_id" uuid null,
      "audience_filter" jsonb null,
      "referenced_fields" text[] not null default '{}',
      "referenced_events" text[] not null default '{}',
      "referenced_segments" uuid[] not null default '{}',
      "status" text check ("status" in ('DRAFT', 'SCHEDULED', 'SENDING', 'SENT', 'CANCELLED', 'FAILED')) not null default 'DRAFT',
      "scheduled_at" timestamptz null,
      "started_at" timestamptz null,
      "snapshot_at" timestamptz null,
      "finished_at" timestamptz null,
      "cancelled_at" timestamptz null,
      "error" text null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "campaigns_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "campaigns" add constraint "campaigns_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "campaigns" add constraint "campaigns_template_id_foreign" foreign key ("template_id") references "templates" ("id") on delete set null;`,
    );
    this.addSql(
      `create index "campaigns_project_id_created_at_index" on "campaigns" ("project_id", "created_at", "id");`,
    );
    this.addSql(
      `create index "campaigns_segment_id_index" on "campaigns" ("segment_id") where "segment_id" is not null;`,
    );

    // The audience, frozen when the send begins. PENDING rows wait to be queued; SKIPPED ones
    // (unsubscribed, suppressed) never are; CANCELLED ones were still PENDING at a cancel.
    this.addSql(`create table "campaign_recipients" (
      "campaign_id" uuid not null,
      "contact_id" uuid not null,
      "status" text check ("status" in ('PENDING', 'QUEUED', 'SKIPPED', 'CANCELLED')) not null,
      "skip_reason" text null,
      "email_id" uuid null,
      constraint "campaign_recipients_pkey" primary key ("campaign_id", "contact_id"));`);
    this.addSql(
      `alter table "campaign_recipients" add constraint "campaign_recipients_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on delete cascade;`,
    );
    this.addSql(
      `create index "campaign_recipients_pending_index" on "campaign_recipients" ("campaign_id", "contact_id") where "status" = 'PENDING';`,
    );

    this.addSql(`alter table "emails"
      add column "campaign_id" uuid null,
      add column "tracking" boolean not null default true,
      add column "opened_at" timestamptz null,
      add column "clicked_at" timestamptz null,
      add column "unsubscribed_at" timestamptz null;`);
    this.addSql(`alter table "emails" drop constraint if exists "emails_status_check";`);
    this.addSql(
      `alter table "emails" add constraint "emails_status_check" check ("status" in ('QUEUED', 'SENT', 'DELIVERED', 'BOUNCED', 'FAILED', 'SUPPRESSED', 'CANCELLED'));`,
    );
    // One email per campaign and contact: a retried batch queues nothing twice.
    this.addSql(
      `create unique index "emails_campaign_contact_unique" on "emails" ("campaign_id", "contact_id") where "campaign_id" is not null;`,
    );
    // What a campaign's send watches: its mail still waiting for SMTP.
    this.addSql(
      `create index "emails_campaign_queued_index" on "emails" ("campaign_id") where "status" = 'QUEUED' and "campaign_id" is not null;`,
    );
    // Lanes find the projects with mail waiting in their queue (a skip scan over project_id),
    // then take each project's share, mail that is not a campaign's first, so a campaign never
    // starves transactional mail queued behind it.
    this.addSql(`drop index if exists "emails_deliverable_index";`);
    this.addSql(
      `create index "emails_deliverable_index" on "emails" ("delivery_queue", "project_id", ("campaign_id" is not null), "created_at") where "status" = 'QUEUED' and "workflow_started_at" is null;`,
    );
    // The per-project send throttle (SEND_RATE_PER_SECOND): the theoretical arrival time of the
    // project's next email (GCRA). A lane holds the row while it claims, so two lanes never spend
    // the same allowance.
    this.addSql(`create table "project_send_pace" (
      "project_id" uuid not null,
      "tat" timestamptz not null,
      constraint "project_send_pace_pkey" primary key ("project_id"),
      constraint "project_send_pace_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "project_send_pace";`);
    this.addSql(`drop index if exists "emails_deliverable_index";`);
    this.addSql(
      `create index "emails_deliverable_index" on "emails" ("delivery_queue", "created_at") where "status" = 'QUEUED' and "workflow_started_at" is null;`,
    );
    this.addSql(`drop index if exists "emails_campaign_contact_unique";`);
    this.addSql(`drop index if exists "emails_campaign_queued_index";`);
    this.addSql(`delete from "emails" where "status" = 'CANCELLED';`);
    this.addSql(`alter table "emails" drop constraint if exists "emails_status_check";`);
    this.addSql(
      `alter table "emails" add constraint "emails_status_check" check ("status" in ('QUEUED', 'SENT', 'DELIVERED', 'BOUNCED', 'FAILED', 'SUPPRESSED'));`,
    );
    this.addSql(`alter table "emails"
      drop column "campaign_id", drop column "tracking", drop column "opened_at",
      drop column "clicked_at", drop column "unsubscribed_at";`);
    this.addSql(`drop table if exists "campaign_recipients" cascade;`);
    this.addSql(`drop table if exists "campaigns" cascade;`);
  }
}
