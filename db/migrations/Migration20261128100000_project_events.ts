import { Migration } from '@mikro-orm/migrations';

/**
 * Events of the project rather than of one contact (the service's `billing.limit_warning`): such
 * an event has no contact, never enters the automation's outbox, and lists with a null contact.
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
  }

  override async down(): Promise<void> {
    this.addSql(`delete from "events" where "contact_id" is null;`);
    this.addSql(`alter table "events" alter column "contact_id" set not null;`);
  }
}
