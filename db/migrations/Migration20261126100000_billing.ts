import { Migration } from '@mikro-orm/migrations';

/**
 * Billing: a project's Stripe customer, plan and subscription status; its monthly caps per
 * category; the usage counted against a cap (kept only while the category has one, rebuilt from
 * the email rows when a cap is set); and the Stripe events already applied (each once).
 */
export class Migration20261126100000_billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "project_billing" (
      "project_id" uuid not null,
      "stripe_customer_id" text null,
      "plan" text check ("plan" in ('FREE', 'PAID')) not null default 'FREE',
      "subscription_id" text null,
      "subscription_status" text null,
      "updated_at" timestamptz not null default now(),
      constraint "project_billing_pkey" primary key ("project_id"),
      constraint "project_billing_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade);`);
    this.addSql(
      `create unique index "project_billing_stripe_customer_id_unique" on "project_billing" ("stripe_customer_id") where "stripe_customer_id" is not null;`,
    );
    this.addSql(`create table "billing_caps" (
      "project_id" uuid not null,
      "category" text check ("category" in ('transactional', 'campaigns', 'workflows', 'inbound')) not null,
      "monthly_cap" int not null check ("monthly_cap" >= 0),
      constraint "billing_caps_pkey" primary key ("project_id", "category"),
      constraint "billing_caps_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade);`);
    // The count a cap is checked against, one row per project, category and month (UTC), moved
    // in the transaction that accepts the mail (its lock orders concurrent requests).
    this.addSql(`create table "billing_usage" (
      "project_id" uuid not null,
      "category" text not null,
      "period_start" date not null,
      "used" int not null,
      "warned_at" timestamptz null,
      constraint "billing_usage_pkey" primary key ("project_id", "category", "period_start"),
      constraint "billing_usage_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade);`);
    // The hours of usage reported to Stripe (one meter event per project, category and hour,
    // whose identifier Stripe de-duplicates, so a report retried before its row was written
    // never bills twice).
    this.addSql(`create table "billing_reports" (
      "project_id" uuid not null,
      "category" text not null,
      "hour" timestamptz not null,
      "value" int not null,
      "reported_at" timestamptz not null default now(),
      constraint "billing_reports_pkey" primary key ("project_id", "category", "hour"),
      constraint "billing_reports_project_id_foreign" foreign key ("project_id") references "projects" ("id") on delete cascade);`);
    this.addSql(`create table "stripe_events" (
      "id" text not null,
      "type" text not null,
      "project_id" uuid null,
      "received_at" timestamptz not null default now(),
      constraint "stripe_events_pkey" primary key ("id"));`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "stripe_events";`);
    this.addSql(`drop table if exists "billing_reports";`);
    this.addSql(`drop table if exists "billing_usage";`);
    this.addSql(`drop table if exists "billing_caps";`);
    this.addSql(`drop table if exists "project_billing";`);
  }
}
