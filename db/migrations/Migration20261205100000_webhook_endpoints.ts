import { Migration } from '@mikro-orm/migrations';

/**
 * Event webhooks to customers' endpoints (issue 26, item 1). An endpoint names the event types
 * it wants; its signing secret is stored encrypted (shown once), and after a rotation the
 * previous one keeps signing until `previous_secret_expires_at`. `failing_since` is when its
 * current run of failed attempts began (cleared by a success); `disabled_for_failing` marks an
 * endpoint the lanes disabled (its deliveries are failed, not kept); `notice_queue` names the queue
 * whose lanes still owe its owners the "endpoint disabled" email.
 *
 * `webhook_deliveries` is the deliveries outbox: one row per event and endpoint, written by the
 * automation dispatcher in the statement that takes the event out of the event outbox, and one
 * per test event or retry the API asks for. Webhook lanes claim due PENDING rows of their queue
 * (the id is the `webhook-id` receivers deduplicate on) and record each attempt's outcome.
 */
export class Migration20261205100000_webhook_endpoints extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook_endpoints" (
      "id" uuid not null,
      "project_id" uuid not null,
      "url" text not null,
      "description" text null,
      "event_types" text[] not null,
      "enabled" boolean not null default true,
      "secret" text not null,
      "previous_secret" text null,
      "previous_secret_expires_at" timestamptz null,
      "secret_rotated_at" timestamptz null,
      "failing_since" timestamptz null,
      "disabled_at" timestamptz null,
      "disabled_for_failing" boolean not null default false,
      "notice_queue" text null,
      "created_at" timestamptz not null default now(),
      "updated_at" timestamptz not null default now(),
      constraint "webhook_endpoints_pkey" primary key ("id"),
      constraint "webhook_endpoints_project_id_foreign" foreign key ("project_id")
        references "projects" ("id") on delete cascade);`);
    this.addSql(
      `create index "webhook_endpoints_project_id_index" on "webhook_endpoints" ("project_id", "id");`,
    );

    this.addSql(`create table "webhook_deliveries" (
      "id" uuid not null,
      "project_id" uuid not null,
      "endpoint_id" uuid not null,
      "event_id" uuid null,
      "type" text not null,
      "payload" jsonb not null,
      "status" text not null default 'PENDING' check ("status" in ('PENDING', 'SUCCEEDED', 'FAILED')),
      "queue" text not null,
      "attempts" int not null default 0,
      "next_attempt_at" timestamptz not null default now(),
      "retry_until" timestamptz null,
      "last_attempt_at" timestamptz null,
      "response_status" int null,
      "response_body" text null,
      "latency_ms" int null,
      "last_error" text null,
      "delivered_at" timestamptz null,
      "created_at" timestamptz not null default now(),
      constraint "webhook_deliveries_pkey" primary key ("id"),
      constraint "webhook_deliveries_endpoint_id_foreign" foreign key ("endpoint_id")
        references "webhook_endpoints" ("id") on delete cascade);`);
    // One delivery per event and endpoint, however often the event were dispatched.
    this.addSql(
      `create unique index "webhook_deliveries_event_unique" on "webhook_deliveries" ("endpoint_id", "event_id") where "event_id" is not null;`,
    );
    this.addSql(
      `create index "webhook_deliveries_due_index" on "webhook_deliveries" ("queue", "next_attempt_at") where "status" = 'PENDING';`,
    );
    this.addSql(
      `create index "webhook_deliveries_log_index" on "webhook_deliveries" ("endpoint_id", "id" desc);`,
    );
    this.addSql(
      `create index "webhook_deliveries_project_id_index" on "webhook_deliveries" ("project_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_deliveries";`);
    this.addSql(`drop table if exists "webhook_endpoints";`);
  }
}
