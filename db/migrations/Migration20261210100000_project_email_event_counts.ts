import { Migration } from '@mikro-orm/migrations';

/**
 * The activity feed's total (issue 28): the first page of `GET /activity` without filters told
 * how many feed events a project has by counting them, 170 ms at 4,000,000 events. The count of
 * each email event name (`email.*`: every activity type is one) per project is kept here instead,
 * exact, by triggers on `events`, so no statement that writes events can forget it.
 *
 * A count is the sum of its shards' rows: a statement adds to the shard of its connection
 * (backend pid mod 16), so concurrent writers (open pixels, campaign lanes) rarely wait on one
 * row. Every change is a delta (+ on insert, - on delete), so two transactions never need to
 * see each other's writes. Custom event names are not counted: tracking pays nothing for this.
 *
 * A deleted project takes its rows (the foreign key); the events its deletion cascades to add
 * nothing back, since the delta is joined with the projects that still exist.
 */
export class Migration20261210100000_project_email_event_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "project_email_event_counts" (
      "project_id" uuid not null,
      "name" text not null,
      "shard" smallint not null,
      "count" bigint not null,
      constraint "project_email_event_counts_pkey" primary key ("project_id", "name", "shard") include ("count"),
      constraint "project_email_event_counts_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade);`);

    // Adds each (project, name)'s delta to this connection's shard, in key order (two statements
    // adding to the same rows wait for each other rather than deadlock).
    this
      .addSql(`create or replace function mw_email_event_count_add(project_ids uuid[], names text[], deltas bigint[])
      returns void language plpgsql as $$
      begin
        insert into project_email_event_counts as c (project_id, name, shard, count)
        select d.project_id, d.name, pg_backend_pid() % 16, sum(d.delta)
          from unnest(project_ids, names, deltas) as d(project_id, name, delta)
          join projects p on p.id = d.project_id
         where d.name like 'email.%'
         group by d.project_id, d.name
         order by d.project_id, d.name
        on conflict (project_id, name, shard) do update set count = c.count + excluded.count;
      end
      $$;`);
    this.addSql(`create or replace function mw_email_event_count_insert() returns trigger
      language plpgsql as $$
      begin
        perform mw_email_event_count_add(array_agg(g.project_id), array_agg(g.name), array_agg(g.n))
           from (select project_id, name, count(*) as n from counted_events
                  where name like 'email.%' group by project_id, name) g
         having count(*) > 0;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_email_count_insert" after insert on "events"
      referencing new table as counted_events for each statement execute function mw_email_event_count_insert();`);
    this.addSql(`create or replace function mw_email_event_count_delete() returns trigger
      language plpgsql as $$
      begin
        perform mw_email_event_count_add(array_agg(g.project_id), array_agg(g.name), array_agg(-g.n))
           from (select project_id, name, count(*) as n from uncounted_events
                  where name like 'email.%' group by project_id, name) g
         having count(*) > 0;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_email_count_delete" after delete on "events"
      referencing old table as uncounted_events for each statement execute function mw_email_event_count_delete();`);
    // Events are not updated in place today; should one change its project or name, it moves.
    this.addSql(`create or replace function mw_email_event_count_update() returns trigger
      language plpgsql as $$
      begin
        perform mw_email_event_count_add(array[old.project_id, new.project_id], array[old.name, new.name], array[-1, 1]::bigint[]);
        return null;
      end
      $$;`);
    this
      .addSql(`create trigger "events_email_count_update" after update of "project_id", "name" on "events"
      for each row execute function mw_email_event_count_update();`);
    this.addSql(`create or replace function mw_email_event_count_truncate() returns trigger
      language plpgsql as $$
      begin
        truncate project_email_event_counts;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_email_count_truncate" after truncate on "events"
      for each statement execute function mw_email_event_count_truncate();`);

    // The events recorded so far. Creating the triggers above locked events against writes
    // until this migration commits, so none is missed or counted twice.
    this.addSql(`insert into project_email_event_counts (project_id, name, shard, count)
      select project_id, name, 0, count(*) from events where name like 'email.%'
       group by project_id, name;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "events_email_count_truncate" on "events";`);
    this.addSql(`drop trigger if exists "events_email_count_update" on "events";`);
    this.addSql(`drop trigger if exists "events_email_count_delete" on "events";`);
    this.addSql(`drop trigger if exists "events_email_count_insert" on "events";`);
    this.addSql(`drop function if exists mw_email_event_count_truncate();`);
    this.addSql(`drop function if exists mw_email_event_count_update();`);
    this.addSql(`drop function if exists mw_email_event_count_delete();`);
    this.addSql(`drop function if exists mw_email_event_count_insert();`);
    this.addSql(`drop function if exists mw_email_event_count_add(uuid[], text[], bigint[]);`);
    this.addSql(`drop table if exists "project_email_event_counts";`);
  }
}
