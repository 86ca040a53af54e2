import { Migration } from '@mikro-orm/migrations';

/**
 * GET /delivery-reports pages a project's reports newest first by their time-ordered ids (a
 * timestamp cut to milliseconds would skip rows between pages): the index follows.
 */
export class Migration20261202100000_delivery_reports_paging extends Migration {
  override async up(): Promise<void> {
    this.addSql(`drop index "delivery_reports_project_created_idx";`);
    this.addSql(
      `create index "delivery_reports_project_id_idx" on "delivery_reports" ("project_id", "id");`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "delivery_reports_project_id_idx";`);
    this.addSql(
      `create index "delivery_reports_project_created_idx" on "delivery_reports" ("project_id", "created_at");`,
    );
  }
}
