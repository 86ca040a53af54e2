import { Migration } from '@mikro-orm/migrations';

/**
 * The activity feed filtered by campaign: the campaign is in the email events' data, so an
 * expression index over it (only on events that name one) keeps that filter off a full scan.
 */
export class Migration20261127100000_insights extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "events_campaign_index" on "events" ("project_id", ("data" ->> 'campaignId'), "id") where "data" ? 'campaignId';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index if exists "events_campaign_index";`);
  }
}
