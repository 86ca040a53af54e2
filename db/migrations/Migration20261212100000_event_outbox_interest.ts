import { Migration } from '@mikro-orm/migrations';

// The outbox trigger's trigger key of an event `n` (as the automation migration's).
const TRIGGER_KEY = `case when n.name ~ '^segment\\.[^.]+\\.entry$' and n.data ? 'segmentId'
                    then 'segment-entry:' || (n.data ->> 'segmentId') else n.name end`;

/** Records the names the graphs of `graphs` (a table of workflow_graphs rows) wait for. */
const insertWaitEvents = (graphs: string) =>
  `insert into workflow_wait_events (project_id, name, workflow_id)
   select distinct w.project_id, e.name, w.id
     from ${graphs} g join workflows w on w.id = g.workflow_id,
          unnest(g.wait_events) as e(name)
   on conflict do nothing`;

/**
 * An event enters the automation outbox only when something of its project can use it: an
 * enabled workflow it triggers (by trigger key), a workflow graph that waits for its name (any
 * version a workflow ever had, so executions on an older graph are still signalled), or an
 * enabled webhook endpoint that asked for its name. Every event used to enter it, so every
 * tracked event and every email's `email.sent` cost an outbox row, its deletion and the
 * dispatcher's statement, for nothing in a project without automation or endpoints.
 *
 * The names graphs wait for are kept per project in `workflow_wait_events` (one row per
 * workflow and name, written by a trigger when a graph is stored, gone with the workflow), so the
 * check is one index probe. Rows are never removed when a newer graph stops waiting: an
 * execution may still run an older graph, and a name too many costs an outbox row, no more.
 */
export class Migration20261212100000_event_outbox_interest extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "workflow_wait_events" (
      "project_id" uuid not null,
      "name" text not null,
      "workflow_id" uuid not null,
      constraint "workflow_wait_events_pkey" primary key ("project_id", "name", "workflow_id"),
      constraint "workflow_wait_events_workflow_id_foreign" foreign key ("workflow_id")
        references "workflows" ("id") on delete cascade);`);
    this.addSql(
      `create index "workflow_wait_events_workflow_id_index" on "workflow_wait_events" ("workflow_id");`,
    );
    this.addSql(`${insertWaitEvents('workflow_graphs')};`);
    this.addSql(`create or replace function mw_workflow_graphs_wait_events() returns trigger
      language plpgsql as $$
      begin
        ${insertWaitEvents('new_graphs')};
        return null;
      end
      $$;`);
    this.addSql(`create trigger "workflow_graphs_wait_events" after insert on "workflow_graphs"
      referencing new table as new_graphs for each statement
      execute function mw_workflow_graphs_wait_events();`);
    this.addSql(`create or replace function mw_events_to_outbox() returns trigger
      language plpgsql as $$
      begin
        insert into event_outbox (event_id, project_id, contact_id, name, trigger_key, queue)
        select k.id, k.project_id, k.contact_id, k.name, k.trigger_key,
               coalesce(current_setting('mailwright.task_queue', true), '')
          from (select n.id, n.project_id, n.contact_id, n.name, ${TRIGGER_KEY} as trigger_key
                  from new_events n
                 where n.contact_id is not null) k
         where exists (select 1 from workflows w
                        where w.project_id = k.project_id and w.trigger_key = k.trigger_key
                          and w.enabled)
            or exists (select 1 from workflow_wait_events x
                        where x.project_id = k.project_id and x.name = k.name)
            or exists (select 1 from webhook_endpoints we
                        where we.project_id = k.project_id and we.enabled
                          and k.name = any(we.event_types));
        return null;
      end
      $$;`);
  }

  override async down(): Promise<void> {
    this.addSql(`create or replace function mw_events_to_outbox() returns trigger
      language plpgsql as $$
      begin
        insert into event_outbox (event_id, project_id, contact_id, name, trigger_key, queue)
        select n.id, n.project_id, n.contact_id, n.name, ${TRIGGER_KEY},
               coalesce(current_setting('mailwright.task_queue', true), '')
          from new_events n
         where n.contact_id is not null;
        return null;
      end
      $$;`);
    this.addSql(`drop trigger if exists "workflow_graphs_wait_events" on "workflow_graphs";`);
    this.addSql(`drop function if exists mw_workflow_graphs_wait_events();`);
    this.addSql(`drop table if exists "workflow_wait_events";`);
  }
}
