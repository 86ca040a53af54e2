import { Migration } from '@mikro-orm/migrations';

/**
 * Segments: definitions (a filter for DYNAMIC ones), stored membership (the members of STATIC
 * segments; the last computed members of tracked DYNAMIC ones), the progress of computes, and
 * the database side of the filter language (domain/segments/filter/values.pure.ts says the rules).
 */
export class Migration20261123100000_segments extends Migration {
  override async up(): Promise<void> {
    // A data value as a number: a JSON number, or text of digits (sign, fraction, 15 characters
    // at most), compared exactly as numeric. Plain SQL, so the planner inlines it.
    this.addSql(`create or replace function mw_filter_number(v jsonb) returns numeric
      language sql immutable parallel safe as $$
        select case jsonb_typeof(v)
          when 'number' then v::numeric
          when 'string' then case when (v #>> '{}') ~ '^[-+]?(?=[0-9.]{1,15}$)[0-9]+(\\.[0-9]+)?$'
                                  then (v #>> '{}')::numeric end
        end
      $$;`);
    // Text as an instant: an ISO 8601 date, or date and time (fraction up to milliseconds, zone
    // Z or +-hh[:mm], none meaning UTC). Anything else, or an impossible date, is null: never an
    // error that would abort the query.
    this.addSql(`create or replace function mw_filter_timestamp(t text) returns timestamptz
      language plpgsql immutable parallel safe as $$
      declare
        m text[];
        y int; mo int; d int; h int; mi int; s int; ms int; zone int := 0;
      begin
        m := regexp_match(t, '^([0-9]{4})-([0-9]{2})-([0-9]{2})(?:[T ]([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\\.([0-9]{1,3}))?)?(Z|([+-])([0-9]{2})(?::?([0-9]{2}))?)?)?$');
        if m is null then return null; end if;
        y := m[1]::int; mo := m[2]::int; d := m[3]::int;
        h := coalesce(m[4]::int, 0); mi := coalesce(m[5]::int, 0); s := coalesce(m[6]::int, 0);
        ms := coalesce(rpad(m[7], 3, '0')::int, 0);
        if y < 1 or mo < 1 or mo > 12 or d < 1 or h > 23 or mi > 59 or s > 59 then return null; end if;
        if d > extract(day from make_date(y, mo, 1) + interval '1 month' - interval '1 day') then
          return null;
        end if;
        if m[9] is not null then
          if m[10]::int > 15 or coalesce(m[11]::int, 0) > 59 then return null; end if;
          zone := (m[10]::int * 60 + coalesce(m[11]::int, 0)) * (case when m[9] = '-' then -1 else 1 end);
        end if;
        return make_timestamptz(y, mo, d, h, mi, s + ms / 1000.0, 'UTC') - make_interval(mins => zone);
      end
      $$;`);

    // Event conditions probe a contact's events of one name since a time (EXISTS per contact):
    // this index answers them from the index alone, and serves what the plain contact_id index
    // did (cascading deletes, a contact's events), which goes.
    this.addSql(
      `create index "events_contact_id_name_created_at_index" on "events" ("contact_id", "name", "created_at");`,
    );
    this.addSql(`drop index if exists "events_contact_id_index";`);

    this.addSql(`create table "segments" (
      "id" uuid not null,
      "project_id" uuid not null,
      "name" text not null,
      "slug" text not null,
      "description" text null,
      "type" text check ("type" in ('DYNAMIC', 'STATIC')) not null,
      "filter" jsonb null,
      "track_membership" boolean not null default false,
      "member_count" int not null default 0,
      "member_count_at" timestamptz null,
      "referenced_fields" text[] not null default '{}',
      "referenced_events" text[] not null default '{}',
      "referenced_segments" uuid[] not null default '{}',
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "segments_pkey" primary key ("id"));`);
    // One slug per project: it names the segment's entry and exit events.
    this.addSql(
      `alter table "segments" add constraint "segments_project_id_slug_unique" unique ("project_id", "slug");`,
    );
    this.addSql(
      `alter table "segments" add constraint "segments_project_id_foreign" foreign key ("project_id") references "projects" ("id") on update cascade on delete cascade;`,
    );
    // The schedule's list of segments to recompute.
    this.addSql(
      `create index "segments_tracked_index" on "segments" ("id") where "track_membership" and "type" = 'DYNAMIC';`,
    );

    this.addSql(`create table "segment_members" (
      "segment_id" uuid not null,
      "contact_id" uuid not null,
      "created_at" timestamptz not null,
      constraint "segment_members_pkey" primary key ("segment_id", "contact_id"));`);
    this.addSql(
      `alter table "segment_members" add constraint "segment_members_segment_id_foreign" foreign key ("segment_id") references "segments" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "segment_members" add constraint "segment_members_contact_id_foreign" foreign key ("contact_id") references "contacts" ("id") on update cascade on delete cascade;`,
    );
    // Deleting a contact finds its memberships.
    this.addSql(
      `create index "segment_members_contact_id_index" on "segment_members" ("contact_id");`,
    );

    // A compute's progress, committed with each batch it covers: a retried attempt resumes after
    // the last committed batch and counts every change once.
    this.addSql(`create table "segment_computes" (
      "run_id" text not null,
      "segment_id" uuid not null,
      "after_contact_id" uuid not null default '00000000-0000-0000-0000-000000000000',
      "done" boolean not null default false,
      "added" int not null default 0,
      "removed" int not null default 0,
      "created_at" timestamptz not null,
      constraint "segment_computes_pkey" primary key ("run_id"));`);
    this.addSql(
      `alter table "segment_computes" add constraint "segment_computes_segment_id_foreign" foreign key ("segment_id") references "segments" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `create index "segment_computes_segment_id_index" on "segment_computes" ("segment_id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "segment_computes";`);
    this.addSql(`drop table if exists "segment_members";`);
    this.addSql(`drop table if exists "segments";`);
    this.addSql(`drop function if exists mw_filter_timestamp(text);`);
    this.addSql(`drop function if exists mw_filter_number(jsonb);`);
    this.addSql(`create index "events_contact_id_index" on "events" ("contact_id");`);
    this.addSql(`drop index if exists "events_contact_id_name_created_at_index";`);
  }
}
