import { Migration } from '@mikro-orm/migrations';

/**
 * Events of the project rather than of one contact (the service's `billing.limit_warning`): such
 * an event has no contact, never enters the automation's outbox, and lists with a null contact.
 * The limit warnings already emailed to the project's owners and admins are kept, each once.
 */
export class Migration20261128100000_project_events extends Migration {
  override async up(): Promise<void> {
    // Metadata only: no rewrite of the events table.
    this.addSql(`alter table "events" alter column "contact_id" drop not null;`);
    // The outbox trigger of the automation migration, leaving out events without a contact
    // (executions are per contact: nothing to start or signal).
    this.addSql(`create or replace function mw_events_to_outbox() returns trigger
      language plpgsql as $$
      begin
        insert into event_outbox (event_id, project_id, contact_id, name, trigger_key, queue)
        select n.id, n.project_id, n.contact_id, n.name,
               case when n.name ~ '^segment\\.[^.]+\\.entry$' and n.data ? 'segmentId'
                    then 'segment-entry:' || (n.data ->> 'segmentId') else n.name end,
               coalesce(current_setting('mailwright.task_queue', true), '')
          from new_events n
         where n.contact_id is not null;
        return null;
      end
      $$;`);
    // Project events are few: the mailer finds the new ones without reading contacts' events.
    this.addSql(
      `create index "events_project_events_index" on "events" ("created_at") where "contact_id" is null;`,
    );
    this.addSql(`create table "billing_warning_mails" (
      "event_id" uuid not null,
      "mailed_at" timestamptz not null default now(),
      constraint "billing_warning_mails_pkey" primary key ("event_id"),
      constraint "billing_warning_mails_event_id_foreign" foreign key ("event_id") references "events" ("id") on delete cascade);`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "billing_warning_mails";`);
    this.addSql(`drop index if exists "events_project_events_index";`);
    this.addSql(`delete from "events" where "contact_id" is null;`);
    this.addSql(`alter table "events" alter column "contact_id" set not null;`);
  }
}
