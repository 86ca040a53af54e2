import { Migration } from '@mikro-orm/migrations';

/**
 * Segment counts while typing (issue 28): a filter's event conditions (`event.<name>` triggered,
 * notTriggered, triggeredWithin, notTriggeredWithin, triggeredOlderThan, triggeredCount) each
 * read only how many events of a name a contact has and when the last one was, so they read one
 * row per contact and name here instead of the contact's events. Exact, not an estimate: every
 * window of the language ends now and starts `value` units before it, so "any event at or after
 * the start" is "the last one at or after it" (domain/segments/filter/sql-parts.pure.ts).
 *
 * Kept by triggers on `events`, so no statement that records events (tracking, imports, COPY,
 * segment computes, emails, billing...) can forget it: one set-based upsert per inserting
 * statement (its rows grouped by contact and name), a recount of the names a delete or an update
 * touched, an emptying with a TRUNCATE. Project events (no contact) are not summarised. Rows go
 * with their contact (and so with its project).
 */
export class Migration20261207110000_contact_event_summary extends Migration {
  override async up(): Promise<void> {
    // Keyed by contact first: a contact's id is unique across projects, a condition probes
    // (contact, name), and deleting a contact finds its rows. `count` and `last_at` ride in the
    // key's index, so a probe reads the index alone once the table is vacuumed.
    this.addSql(`create table "contact_event_summary" (
      "contact_id" uuid not null,
      "name" text not null,
      "project_id" uuid not null,
      "count" bigint not null,
      "first_at" timestamptz not null,
      "last_at" timestamptz not null,
      constraint "contact_event_summary_pkey" primary key ("contact_id", "name") include ("count", "last_at"),
      constraint "contact_event_summary_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade);`);

    // Inserted events, grouped by contact and name, added in key order (two statements adding
    // to the same rows wait for each other rather than deadlock).
    this.addSql(`create or replace function mw_event_summary_insert() returns trigger
      language plpgsql as $$
      begin
        insert into contact_event_summary as s (contact_id, name, project_id, count, first_at, last_at)
        select n.contact_id, n.name, min(n.project_id::text)::uuid, count(*), min(n.created_at), max(n.created_at)
          from summarised_events n
         where n.contact_id is not null
         group by n.contact_id, n.name
         order by n.contact_id, n.name
        on conflict (contact_id, name) do update
           set count = s.count + excluded.count,
               first_at = least(s.first_at, excluded.first_at),
               last_at = greatest(s.last_at, excluded.last_at);
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_summary_insert" after insert on "events"
      referencing new table as summarised_events for each statement execute function mw_event_summary_insert();`);

    // The (contact, name) pairs whose events were deleted or changed, counted again from events
    // (the events_contact_id_name_created_at_index answers each pair). First every pair's row is
    // locked, in key order, a placeholder made where none is: an inserting transaction that has
    // added to (or made) the row and not committed is waited for. Then the count, a statement of
    // its own and so a snapshot taken after that wait, sees its events; and an insert that comes
    // later waits for this transaction and adds to what it wrote. (Counting first and locking
    // after lost a concurrent insert's event.) Pairs of a contact being deleted are left to the
    // cascade.
    this
      .addSql(`create or replace function mw_event_summary_recount(contact_ids uuid[], names text[])
      returns void language plpgsql as $$
      begin
        insert into contact_event_summary as s (contact_id, name, project_id, count, first_at, last_at)
        select k.contact_id, k.name, c.project_id, 0, 'infinity', '-infinity'
          from (select distinct t.contact_id, t.name from unnest(contact_ids, names) as t(contact_id, name)
                 where t.contact_id is not null) k
          join contacts c on c.id = k.contact_id
         order by k.contact_id, k.name
        on conflict (contact_id, name) do update set count = s.count;

        with k as (
          select distinct t.contact_id, t.name from unnest(contact_ids, names) as t(contact_id, name)
           where t.contact_id is not null),
        agg as (
          select k.contact_id, k.name, a.project_id, a.n, a.first_at, a.last_at
            from k cross join lateral (
              select min(e.project_id::text)::uuid as project_id, count(*) as n,
                     min(e.created_at) as first_at, max(e.created_at) as last_at
                from events e where e.contact_id = k.contact_id and e.name = k.name) a),
        dropped as (
          delete from contact_event_summary s using agg
           where agg.n = 0 and s.contact_id = agg.contact_id and s.name = agg.name)
        update contact_event_summary s
           set project_id = agg.project_id, count = agg.n, first_at = agg.first_at, last_at = agg.last_at
          from agg
         where agg.n > 0 and s.contact_id = agg.contact_id and s.name = agg.name;
      end
      $$;`);
    this.addSql(`create or replace function mw_event_summary_delete() returns trigger
      language plpgsql as $$
      begin
        perform mw_event_summary_recount(array_agg(g.contact_id), array_agg(g.name))
           from (select distinct contact_id, name from summary_gone where contact_id is not null) g;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_summary_delete" after delete on "events"
      referencing old table as summary_gone for each statement execute function mw_event_summary_delete();`);
    // Events are not updated in place today; should one change whom or what it names, or when,
    // both its old and new pairs are counted again.
    this.addSql(`create or replace function mw_event_summary_update() returns trigger
      language plpgsql as $$
      begin
        perform mw_event_summary_recount(array[old.contact_id, new.contact_id], array[old.name, new.name]);
        return null;
      end
      $$;`);
    this
      .addSql(`create trigger "events_summary_update" after update of "contact_id", "name", "created_at" on "events"
      for each row execute function mw_event_summary_update();`);
    this.addSql(`create or replace function mw_event_summary_truncate() returns trigger
      language plpgsql as $$
      begin
        truncate contact_event_summary;
        return null;
      end
      $$;`);
    this.addSql(`create trigger "events_summary_truncate" after truncate on "events"
      for each statement execute function mw_event_summary_truncate();`);

    // The events recorded so far. Creating the triggers above locked events against writes
    // until this migration commits, so none is missed or counted twice.
    this
      .addSql(`insert into contact_event_summary (contact_id, name, project_id, count, first_at, last_at)
      select contact_id, name, min(project_id::text)::uuid, count(*), min(created_at), max(created_at)
        from events where contact_id is not null
       group by contact_id, name;`);
    this.addSql(`analyze contact_event_summary;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger if exists "events_summary_truncate" on "events";`);
    this.addSql(`drop trigger if exists "events_summary_update" on "events";`);
    this.addSql(`drop trigger if exists "events_summary_delete" on "events";`);
    this.addSql(`drop trigger if exists "events_summary_insert" on "events";`);
    this.addSql(`drop function if exists mw_event_summary_truncate();`);
    this.addSql(`drop function if exists mw_event_summary_update();`);
    this.addSql(`drop function if exists mw_event_summary_delete();`);
    this.addSql(`drop function if exists mw_event_summary_recount(uuid[], text[]);`);
    this.addSql(`drop function if exists mw_event_summary_insert();`);
    this.addSql(`drop table if exists "contact_event_summary";`);
  }
}
