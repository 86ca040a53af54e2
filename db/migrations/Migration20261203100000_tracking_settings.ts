import { Migration } from '@mikro-orm/migrations';

/**
 * Open and click tracking each on or off (issue 26): a campaign's and a template's own setting
 * (null: the next level decides), the project's as `settings.tracking: {opens, clicks}` (was one
 * `trackingEnabled`), and on each email what it was queued with (was `tracking`, read with the
 * project's setting at delivery).
 */
export class Migration20261203100000_tracking_settings extends Migration {
  override async up(): Promise<void> {
    for (const table of ['campaigns', 'templates']) {
      this.addSql(
        `alter table "${table}" add column "open_tracking" boolean null, add column "click_tracking" boolean null;`,
      );
    }
    // The default fills the existing rows without rewriting the table (only the untracked are
    // changed); every writer of the outbox gives both values (email-outbox.sql.ts).
    this.addSql(
      `alter table "emails" add column "open_tracking" boolean not null default true,
                            add column "click_tracking" boolean not null default true;`,
    );
    this.addSql(
      `update "emails" e set "open_tracking" = false, "click_tracking" = false
        where not e."tracking"
           or e."project_id" in (select "id" from "projects"
                                  where ("settings" ->> 'trackingEnabled')::boolean = false);`,
    );
    this.addSql(`alter table "emails" drop column "tracking";`);
    this.addSql(
      `update "projects"
          set "settings" = ("settings" - 'trackingEnabled')
              || jsonb_build_object('tracking', jsonb_build_object(
                   'opens', ("settings" ->> 'trackingEnabled')::boolean,
                   'clicks', ("settings" ->> 'trackingEnabled')::boolean))
        where "settings" -> 'trackingEnabled' is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(
      `update "projects"
          set "settings" = ("settings" - 'tracking')
              || jsonb_build_object('trackingEnabled',
                   coalesce(("settings" #>> '{tracking,opens}')::boolean, true)
                   or coalesce(("settings" #>> '{tracking,clicks}')::boolean, true))
        where "settings" -> 'tracking' is not null;`,
    );
    this.addSql(`alter table "emails" add column "tracking" boolean not null default true;`);
    this.addSql(
      `update "emails" set "tracking" = false where not "open_tracking" and not "click_tracking";`,
    );
    this.addSql(`alter table "emails" drop column "open_tracking", drop column "click_tracking";`);
    for (const table of ['campaigns', 'templates']) {
      this.addSql(
        `alter table "${table}" drop column "open_tracking", drop column "click_tracking";`,
      );
    }
  }
}
