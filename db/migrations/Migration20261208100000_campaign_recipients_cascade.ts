import { Migration } from '@mikro-orm/migrations';

/**
 * A campaign's recipient rows go with it through a statement trigger instead of a foreign key:
 * the key's check ran once per inserted row (a lookup and a lock of the campaign row each), about
 * a third of a 100,000-recipient snapshot's time, while every statement that adds recipients
 * reads the campaign row, and locks it, once (campaign-audience.sql.ts). Deletes of campaigns,
 * one or a project's at once, take their recipients in one set-based DELETE.
 */
export class Migration20261208100000_campaign_recipients_cascade extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `alter table "campaign_recipients" drop constraint "campaign_recipients_campaign_id_foreign";`,
    );
    this.addSql(`create function "campaign_recipients_follow_campaigns"() returns trigger
      language plpgsql as $$
      begin
        delete from "campaign_recipients" r using "gone_campaigns" g where r."campaign_id" = g."id";
        return null;
      end $$;`);
    this.addSql(`create trigger "campaigns_delete_recipients" after delete on "campaigns"
      referencing old table as "gone_campaigns"
      for each statement execute function "campaign_recipients_follow_campaigns"();`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop trigger "campaigns_delete_recipients" on "campaigns";`);
    this.addSql(`drop function "campaign_recipients_follow_campaigns"();`);
    this.addSql(
      `alter table "campaign_recipients" add constraint "campaign_recipients_campaign_id_foreign" foreign key ("campaign_id") references "campaigns" ("id") on delete cascade;`,
    );
  }
}
