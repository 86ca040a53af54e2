import { Migration } from '@mikro-orm/migrations';

/**
 * Activity figures without counting millions of events (issue 28): the count of each email event
 * name (`email.*`; every activity type is one) per project is kept whole
 * (`project_email_event_counts`: the feed's total) and per UTC hour
 * (`project_email_event_hours`: the stats and time series of a window read its whole hours here
 * and count only its partial first and last hours from the events). Exact, kept by triggers on
 * `events`, so no statement that writes events can forget them. Custom event names are not
 * counted: tracking pays nothing for this.
 *
 * A count is the sum of its shards' rows: a statement adds to the shard of its connection
 * (backend pid mod 16), so concurrent writers (open pixels, campaign lanes) rarely wait on one
 * row. The counts are in no index and the pages keep room, so an addition is a HOT update (no
 * new index entry, the old version pruned from the page); reads fetch the rows from the table. Every change is a delta (+ on insert, - on delete), so two transactions never need to
 * see each other's writes.
 *
 * A deleted project takes its rows (the foreign keys); the events its deletion cascades to add
 * nothing back, since the deltas are joined with the projects that still exist.
 */
export class Migration20261210100000_email_event_counts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "project_email_event_counts" (
      "project_id" uuid not null,
      "name" text not null,
      "shard" smallint not null,
      "count" bigint not null,
      constraint "project_email_event_counts_pkey" primary key ("project_id", "name", "shard"),
      constraint "project_email_event_counts_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade)
      with (fillfactor = 50);`);
    this.addSql(`create table "project_email_event_hours" (
      "project_id" uuid not null,
      "name" text not null,
      "hour" timestamptz not null,
      "shard" smallint not null,
      "count" bigint not null,
      constraint "project_email_event_hours_pkey" primary key ("project_id", "name", "hour", "shard"),
      constraint "project_email_event_hours_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade)
      with (fillfactor = 70);`);

    // Adds each (project, name, time)'s delta to this connection's shard of its hour and of its
    // whole count, in key order (two statements adding to the same rows wait for each other
    // rather than deadlock).
    this
      .addSql(`create or replace function mw_email_event_count_add(project_ids uuid[], names text[], times timestamptz[], deltas bigint[])
      returns void language plpgsql as $$
      begin
        with d as (
          select d.project_id, d.name, date_trunc('hour', d.at, 'UTC') as hour, sum(d.delta) as delta
            from unnest(project_ids, names, times, deltas) as d(project_id, name, at, delta)
            join projects p on p.id = d.project_id
           where d.name like 'email.%'
           group by 1, 2, 3),
        totals as (
          insert into project_email_event_counts as c (project_id, name, shard, count)
          select d.project_id, d.name, pg_backend_pid() % 16, sum(d.delta)
            from d
           group by d.project_id, d.name
           order by d.project_id, d.name
          on conflict (project_id, name, shard) do update set count = c.count + excluded.count)
        insert into project_email_event_hours as h (project_id, name, hour, shard, count)
        select d.project_id, d.name, d.hour, pg_backend_pid() % 16, d.delta
          from d
         order by d.project_id, d.name, d.hour
        on conflict (project_id, name, hour, shard) do update set count = h.count + excluded.count;
      end
      $$;`);
    this.addSql(`create or replace function mw_email_event_count_insert() returns trigger
      language plpgsql as $$
      begin
        perform mw_email_event_count_add(array_agg(g.project_id), array_agg(g.name), array_agg(g.hour), array_agg(g.n))
           from (select project_id, name, date_trunc('hour', created_at, 'UTC') as hour, count(*) as n
                   from counted_events where name like 'email.%' group by 1, 2, 3) g
         having count(*) > 0;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_email_count_insert" after insert on "events"
      referencing new table as counted_events for each statement execute function mw_email_event_count_insert();`);
    this.addSql(`create or replace function mw_email_event_count_delete() returns trigger
      language plpgsql as $$
      begin
        perform mw_email_event_count_add(array_agg(g.project_id), array_agg(g.name), array_agg(g.hour), array_agg(-g.n))
           from (select project_id, name, date_trunc('hour', created_at, 'UTC') as hour, count(*) as n
                   from uncounted_events where name like 'email.%' group by 1, 2, 3) g
         having count(*) > 0;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_email_count_delete" after delete on "events"
      referencing old table as uncounted_events for each statement execute function mw_email_event_count_delete();`);
    // Events are not updated in place today; should one change its project, name or time, it
    // moves from one count to the other.
    this.addSql(`create or replace function mw_email_event_count_update() returns trigger
      language plpgsql as $$
      begin
        perform mw_email_event_count_add(array[old.project_id, new.project_id], array[old.name, new.name],
                                         array[old.created_at, new.created_at], array[-1, 1]::bigint[]);
        return null;
      end
      $$;`);
    this
      .addSql(`create trigger "events_email_count_update" after update of "project_id", "name", "created_at" on "events"
      for each row execute function mw_email_event_count_update();`);
    this.addSql(`create or replace function mw_email_event_count_truncate() returns trigger
      language plpgsql as $$
      begin
        truncate project_email_event_counts, project_email_event_hours;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_email_count_truncate" after truncate on "events"
      for each statement execute function mw_email_event_count_truncate();`);

    // The events recorded so far. Creating the triggers above locked events against writes
    // until this migration commits, so none is missed or counted twice.
    this.addSql(`insert into project_email_event_hours (project_id, name, hour, shard, count)
      select project_id, name, date_trunc('hour', created_at, 'UTC'), 0, count(*)
        from events where name like 'email.%'
       group by 1, 2, 3;`);
    this.addSql(`insert into project_email_event_counts (project_id, name, shard, count)
      select project_id, name, 0, sum(count) from project_email_event_hours group by 1, 2;`);
    this.addSql(`analyze project_email_event_hours;`);
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
    this.addSql(
      `drop function if exists mw_email_event_count_add(uuid[], text[], timestamptz[], bigint[]);`,
    );
    this.addSql(`drop table if exists "project_email_event_hours";`);
    this.addSql(`drop table if exists "project_email_event_counts";`);
  }
}
