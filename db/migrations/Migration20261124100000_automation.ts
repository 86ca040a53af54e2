import { Migration } from '@mikro-orm/migrations';

/**
 * Automation: workflow definitions (steps and transitions, and snapshots of their graph that
 * executions keep), executions with their step log, the event outbox the dispatcher drains, and
 * the outbox of Temporal commands (start, signal, cancel) the dispatcher carries out.
 */
export class Migration20261124100000_automation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "workflows" (
      "id" uuid not null,
      "project_id" uuid not null,
      "name" text not null,
      "description" text null,
      "trigger_type" text check ("trigger_type" in ('EVENT', 'MANUAL', 'SEGMENT_ENTRY')) not null,
      "trigger_event" text null,
      "trigger_segment_id" uuid null,
      "trigger_key" text null,
      "enabled" boolean not null default false,
      "allow_reentry" boolean not null default false,
      "graph_id" uuid null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "workflows_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "workflows" add constraint "workflows_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create index "workflows_project_id_created_at_index" on "workflows" ("project_id", "created_at");`,
    );
    // What the dispatcher matches an event against: the enabled workflows of its trigger key.
    this.addSql(
      `create index "workflows_trigger_index" on "workflows" ("project_id", "trigger_key") where "enabled";`,
    );
    this.addSql(
      `create index "workflows_trigger_segment_id_index" on "workflows" ("trigger_segment_id") where "trigger_segment_id" is not null;`,
    );

    this.addSql(`create table "workflow_steps" (
      "id" uuid not null,
      "workflow_id" uuid not null,
      "type" text check ("type" in ('SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT')) not null,
      "name" text null,
      "config" jsonb not null,
      "position" jsonb null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "workflow_steps_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "workflow_steps" add constraint "workflow_steps_workflow_id_foreign" foreign key ("workflow_id") references "workflows" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create index "workflow_steps_workflow_id_index" on "workflow_steps" ("workflow_id");`,
    );

    this.addSql(`create table "workflow_transitions" (
      "id" uuid not null,
      "workflow_id" uuid not null,
      "from_step_id" uuid not null,
      "to_step_id" uuid not null,
      "branch" text check ("branch" in ('yes', 'no', 'event', 'timeout')) null,
      "created_at" timestamptz not null,
      constraint "workflow_transitions_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "workflow_transitions" add constraint "workflow_transitions_workflow_id_foreign" foreign key ("workflow_id") references "workflows" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "workflow_transitions" add constraint "workflow_transitions_from_step_id_foreign" foreign key ("from_step_id") references "workflow_steps" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "workflow_transitions" add constraint "workflow_transitions_to_step_id_foreign" foreign key ("to_step_id") references "workflow_steps" ("id") on update cascade on delete cascade;`,
    );
    // One transition per branch of a step (an unlabelled step has one, under '').
    this.addSql(
      `create unique index "workflow_transitions_from_branch_unique" on "workflow_transitions" ("from_step_id", coalesce("branch", ''));`,
    );
    this.addSql(
      `create index "workflow_transitions_to_step_id_index" on "workflow_transitions" ("to_step_id");`,
    );
    this.addSql(
      `create index "workflow_transitions_workflow_id_index" on "workflow_transitions" ("workflow_id");`,
    );

    // The graph as executions see it, one row per version that an execution or the workflow
    // uses; `wait_events` are the event names its WAIT_FOR_EVENT steps wait for (only those
    // are signalled to its executions).
    this.addSql(`create table "workflow_graphs" (
      "id" uuid not null,
      "workflow_id" uuid not null,
      "graph" jsonb not null,
      "wait_events" text[] not null default '{}',
      "created_at" timestamptz not null,
      constraint "workflow_graphs_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "workflow_graphs" add constraint "workflow_graphs_workflow_id_foreign" foreign key ("workflow_id") references "workflows" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create index "workflow_graphs_workflow_id_index" on "workflow_graphs" ("workflow_id");`,
    );

    this.addSql(`create table "executions" (
      "id" uuid not null,
      "project_id" uuid not null,
      "workflow_id" uuid not null,
      "contact_id" uuid not null,
      "graph_id" uuid not null,
      "status" text check ("status" in ('RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED')) not null,
      "current_step_id" uuid null,
      "context" jsonb not null default '{}',
      "trigger_event_id" uuid null,
      "trigger_event" jsonb null,
      "queue" text not null,
      "exit_reason" text null,
      "error" text null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "started_at" timestamptz null,
      "finished_at" timestamptz null,
      constraint "executions_pkey" primary key ("id"));`);
    this.addSql(
      `alter table "executions" add constraint "executions_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "executions" add constraint "executions_workflow_id_foreign" foreign key ("workflow_id") references "workflows" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "executions" add constraint "executions_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "executions" add constraint "executions_graph_id_foreign" foreign key ("graph_id") references "workflow_graphs" ("id") on update cascade;`,
    );
    // At most one RUNNING or WAITING execution per workflow and contact.
    this.addSql(
      `create unique index "executions_active_unique" on "executions" ("workflow_id", "contact_id") where "status" in ('RUNNING', 'WAITING');`,
    );
    // An event starts at most one execution of a workflow, however often it is dispatched.
    this.addSql(
      `create unique index "executions_trigger_event_unique" on "executions" ("workflow_id", "trigger_event_id") where "trigger_event_id" is not null;`,
    );
    // allowReentry false: whether a contact ever had an execution of the workflow.
    this.addSql(
      `create index "executions_workflow_id_contact_id_index" on "executions" ("workflow_id", "contact_id");`,
    );
    // The list of a workflow's executions, by status, newest first.
    this.addSql(
      `create index "executions_workflow_id_status_id_index" on "executions" ("workflow_id", "status", "id");`,
    );
    this.addSql(
      `create index "executions_workflow_id_id_index" on "executions" ("workflow_id", "id");`,
    );
    // The active executions of a contact, which its events are signalled to.
    this.addSql(
      `create index "executions_contact_active_index" on "executions" ("contact_id") where "status" in ('RUNNING', 'WAITING');`,
    );
    this.addSql(`create index "executions_graph_id_index" on "executions" ("graph_id");`);

    this.addSql(`create table "execution_steps" (
      "execution_id" uuid not null,
      "seq" int not null,
      "step_id" uuid not null,
      "type" text check ("type" in ('SEND_EMAIL', 'DELAY', 'WAIT_FOR_EVENT', 'CONDITION', 'WEBHOOK', 'UPDATE_CONTACT', 'EXIT')) not null,
      "status" text check ("status" in ('RUNNING', 'COMPLETED', 'FAILED', 'CANCELLED')) not null,
      "started_at" timestamptz not null,
      "finished_at" timestamptz null,
      "result" jsonb null,
      "error" text null,
      constraint "execution_steps_pkey" primary key ("execution_id", "seq"));`);
    this.addSql(
      `alter table "execution_steps" add constraint "execution_steps_execution_id_foreign" foreign key ("execution_id") references "executions" ("id") on update cascade on delete cascade;`,
    );

    // What the dispatcher still has to tell Temporal: start an execution, signal it an event,
    // cancel it. Carried out at least once; each is idempotent on Temporal's side (the workflow
    // id is the execution's, events are de-duplicated by id, a cancel of an ended run is moot).
    this.addSql(`create table "execution_commands" (
      "id" uuid not null default uuid_generate_v7(),
      "execution_id" uuid not null,
      "kind" text check ("kind" in ('START', 'SIGNAL', 'CANCEL')) not null,
      "event_id" uuid null,
      "queue" text not null,
      "attempts" int not null default 0,
      "not_before" timestamptz not null default now(),
      "last_error" text null,
      "created_at" timestamptz not null default now(),
      constraint "execution_commands_pkey" primary key ("id"));`);
    // No foreign key: a command outlives its execution's row. When RUNNING or WAITING executions
    // are deleted (with their contact, their project, a project reset), their durable runs must
    // still be cancelled, or a wait without a timeout would never end; the trigger below writes
    // those CANCEL commands, whatever statement deleted the rows.
    this.addSql(`create or replace function mw_cancel_deleted_executions() returns trigger
      language plpgsql as $$
      begin
        insert into execution_commands (execution_id, kind, queue)
        select g.id, 'CANCEL', g.queue from gone g where g.status in ('RUNNING', 'WAITING')
        on conflict do nothing;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "executions_cancel_deleted" after delete on "executions"
      referencing old table as gone for each statement execute function mw_cancel_deleted_executions();`);
    this.addSql(
      `create unique index "execution_commands_unique" on "execution_commands" ("execution_id", "kind", coalesce("event_id", '00000000-0000-0000-0000-000000000000'));`,
    );
    this.addSql(
      `create index "execution_commands_queue_not_before_index" on "execution_commands" ("queue", "not_before");`,
    );

    // The event outbox: one row per stored event until the dispatcher has matched it. Written by
    // a trigger, so no statement that records events can forget it; the row names the task queue
    // of the process that recorded the event (the session's mailwright.task_queue), whose
    // dispatcher takes it ('' when the session named none: any dispatcher may).
    this.addSql(`create table "event_outbox" (
      "event_id" uuid not null,
      "project_id" uuid not null,
      "contact_id" uuid not null,
      "name" text not null,
      "trigger_key" text not null,
      "queue" text not null,
      constraint "event_outbox_pkey" primary key ("event_id"));`);
    this.addSql(
      `create index "event_outbox_queue_event_id_index" on "event_outbox" ("queue", "event_id");`,
    );
    this.addSql(`create or replace function mw_events_to_outbox() returns trigger
      language plpgsql as $$
      begin
        insert into event_outbox (event_id, project_id, contact_id, name, trigger_key, queue)
        select n.id, n.project_id, n.contact_id, n.name,
               case when n.name ~ '^segment\\.[^.]+\\.entry$' and n.data ? 'segmentId'
                    then 'segment-entry:' || (n.data ->> 'segmentId') else n.name end,
               coalesce(current_setting('mailwright.task_queue', true), '')
          from new_events n;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_to_outbox" after insert on "events"
      referencing new table as new_events for each statement execute function mw_events_to_outbox();`);
    // The outbox replaces the events' own dispatch mark. Events recorded before automation
    // existed have nothing to trigger.
    this.addSql(`drop index if exists "events_undispatched_index";`);
    this.addSql(`alter table "events" drop column if exists "dispatched_at";`);

    // Emails a workflow sends: one per execution and step, however often the step runs.
    this.addSql(
      `alter table "emails" add column "workflow_id" uuid null, add column "execution_id" uuid null, add column "step_id" uuid null;`,
    );
    this.addSql(
      `create unique index "emails_execution_step_unique" on "emails" ("execution_id", "step_id") where "execution_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "emails_execution_step_unique";`);
    this.addSql(
      `alter table "emails" drop column "workflow_id", drop column "execution_id", drop column "step_id";`,
    );
    this.addSql(`alter table "events" add column "dispatched_at" timestamptz null;`);
    this.addSql(
      `create index "events_undispatched_index" on "events" ("created_at") where "dispatched_at" is null;`,
    );
    this.addSql(`drop trigger if exists "events_to_outbox" on "events";`);
    this.addSql(`drop function if exists mw_events_to_outbox();`);
    this.addSql(`drop table if exists "event_outbox";`);
    this.addSql(`drop trigger if exists "executions_cancel_deleted" on "executions";`);
    this.addSql(`drop function if exists mw_cancel_deleted_executions();`);
    this.addSql(`drop table if exists "execution_commands";`);
    this.addSql(`drop table if exists "execution_steps";`);
    this.addSql(`drop table if exists "executions";`);
    this.addSql(`drop table if exists "workflow_graphs";`);
    this.addSql(`drop table if exists "workflow_transitions";`);
    this.addSql(`drop table if exists "workflow_steps";`);
    this.addSql(`drop table if exists "workflows";`);
  }
}
