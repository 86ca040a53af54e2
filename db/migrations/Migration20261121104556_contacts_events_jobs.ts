import { Migration } from '@mikro-orm/migrations';

export class Migration20261121104556_contacts_events_jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create extension if not exists pg_trgm;`);
    // UUID v7 in SQL (PostgreSQL 18 has it built in), for rows created by set-based statements,
    // so that every id sorts by creation time like the ids made in code.
    this
      .addSql(`create or replace function uuid_generate_v7() returns uuid language sql volatile as $$
      select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
        substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3)
        from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
    $$;`);

    this.addSql(
      `create table "contacts" ("id" uuid not null, "project_id" uuid not null, "email" text not null, "subscribed" boolean not null, "data" jsonb not null default '{}', "subscription_changed_at" timestamptz not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, constraint "contacts_pkey" primary key ("id"));`,
    );
    // Upserts and lookups by email.
    this.addSql(
      `alter table "contacts" add constraint "contacts_project_id_email_unique" unique ("project_id", "email");`,
    );
    // Keyset pages, newest first (ids are UUID v7, so id order is creation order).
    this.addSql(`create index "contacts_project_id_id_index" on "contacts" ("project_id", "id");`);
    // Case-insensitive substring search on email.
    this.addSql(
      `create index "contacts_email_trgm_index" on "contacts" using gin ("email" gin_trgm_ops);`,
    );
    // Field presence and containment filters on contact data (segments, field deletion).
    this.addSql(`create index "contacts_data_gin_index" on "contacts" using gin ("data");`);
    this.addSql(
      `alter table "contacts" add constraint "contacts_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "events" ("id" uuid not null default uuid_generate_v7(), "project_id" uuid not null, "contact_id" uuid not null, "name" text not null, "data" jsonb not null default '{}', "created_at" timestamptz not null, "dispatched_at" timestamptz null, constraint "events_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "events_project_id_id_index" on "events" ("project_id", "id");`);
    this.addSql(
      `create index "events_project_id_contact_id_created_at_index" on "events" ("project_id", "contact_id", "created_at");`,
    );
    this.addSql(
      `create index "events_project_id_name_created_at_index" on "events" ("project_id", "name", "created_at");`,
    );
    // The automation dispatcher's work list stays small: only events it has not seen yet.
    this.addSql(
      `create index "events_undispatched_index" on "events" ("created_at") where "dispatched_at" is null;`,
    );
    this.addSql(`create index "events_contact_id_index" on "events" ("contact_id");`);
    this.addSql(
      `alter table "events" add constraint "events_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "events" add constraint "events_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "jobs" ("id" uuid not null, "project_id" uuid not null, "type" text check ("type" in ('IMPORT', 'BULK_SUBSCRIBE', 'BULK_UNSUBSCRIBE', 'BULK_DELETE')) not null, "status" text check ("status" in ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')) not null, "input" jsonb not null default '{}', "processed" int not null default 0, "total" int null, "result" jsonb not null, "created_at" timestamptz not null, "started_at" timestamptz null, "finished_at" timestamptz null, constraint "jobs_pkey" primary key ("id"));`,
    );
    this.addSql(
      `create index "jobs_project_id_created_at_index" on "jobs" ("project_id", "created_at");`,
    );
    this.addSql(
      `alter table "jobs" add constraint "jobs_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "job_files" ("job_id" uuid not null, "filename" text not null, "content" bytea not null, "size" int not null, constraint "job_files_pkey" primary key ("job_id"));`,
    );
    this.addSql(
      `alter table "job_files" add constraint "job_files_job_id_foreign" foreign key ("job_id") references "jobs" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `create table "idempotency_keys" ("project_id" uuid not null, "key" text not null, "scope" text not null, "created_at" timestamptz not null, constraint "idempotency_keys_pkey" primary key ("project_id", "key"));`,
    );
    this.addSql(
      `create index "idempotency_keys_created_at_index" on "idempotency_keys" ("created_at");`,
    );
    this.addSql(
      `alter table "idempotency_keys" add constraint "idempotency_keys_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "idempotency_keys" cascade;`);
    this.addSql(`drop table if exists "job_files" cascade;`);
    this.addSql(`drop table if exists "jobs" cascade;`);
    this.addSql(`drop table if exists "events" cascade;`);
    this.addSql(`drop table if exists "contacts" cascade;`);
    this.addSql(`drop function if exists uuid_generate_v7();`);
  }
}
