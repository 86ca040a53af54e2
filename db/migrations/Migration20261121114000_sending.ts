import { Migration } from '@mikro-orm/migrations';

export class Migration20261121114000_sending extends Migration {
  override async up(): Promise<void> {
    // One row per email: what to render and send, and what became of it.
    this.addSql(`alter table "emails"
      add column "contact_id" uuid null references "contacts" ("id") on delete set null,
      add column "template_id" uuid null references "templates" ("id") on delete set null,
      add column "domain_id" uuid null references "domains" ("id") on delete set null,
      add column "from_address" text null,
      add column "from_name" text null,
      add column "reply_to" text null,
      add column "to_name" text null,
      add column "headers" jsonb not null default '{}',
      add column "body" text null,
      add column "variables" jsonb not null default '{}',
      add column "attachment_ids" uuid[] not null default '{}',
      add column "message_id" text null,
      add column "error" text null,
      add column "suppression_reason" text null,
      add column "delivered_at" timestamptz null;`);
    this.addSql(`create index "emails_contact_id_index" on "emails" ("contact_id");`);
    // Attachments are kept once per request and shared by its recipients' emails.
    this.addSql(
      `create table "attachments" ("id" uuid not null, "project_id" uuid not null references "projects" ("id") on delete cascade, "filename" text not null, "content_type" text not null, "content_id" text null, "disposition" text not null, "content" bytea not null, "created_at" timestamptz not null default now(), constraint "attachments_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "attachments_project_id_index" on "attachments" ("project_id");`);
    // Addresses that must get nothing more (hard bounce, complaint), per project.
    this.addSql(
      `create table "suppressions" ("project_id" uuid not null references "projects" ("id") on delete cascade, "email" text not null, "reason" text not null, "created_at" timestamptz not null default now(), constraint "suppressions_pkey" primary key ("project_id", "email"));`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "suppressions";`);
    this.addSql(`drop table if exists "attachments";`);
    this.addSql(
      `alter table "emails" drop column "contact_id", drop column "template_id", drop column "domain_id", drop column "from_address", drop column "from_name", drop column "reply_to", drop column "to_name", drop column "headers", drop column "body", drop column "variables", drop column "attachment_ids", drop column "message_id", drop column "error", drop column "suppression_reason", drop column "delivered_at";`,
    );
  }
}
