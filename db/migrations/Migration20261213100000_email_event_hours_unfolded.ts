import { Migration } from '@mikro-orm/migrations';

/**
 * The hourly counts' rows that a fold may still merge (`foldEventHourShards`): every shard but
 * shard 0, by hour, so the fold reads only what is left to fold, not the years of folded hours.
 * Small: an hour's extra shards live until the next fold. `shard` and `hour` never change once a
 * row is written, so additions to a row stay HOT updates.
 */
export class Migration20261213100000_email_event_hours_unfolded extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index "project_email_event_hours_unfolded_index"
      on "project_email_event_hours" ("hour") where "shard" <> 0;`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "project_email_event_hours_unfolded_index";`);
  }
}
