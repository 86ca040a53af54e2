import { Migration } from '@mikro-orm/migrations';

/**
 * SES notifications and /webhooks/email name an email by its Message-ID (with the recipient):
 * without an index each report scanned every email of the install.
 */
export class Migration20261207140000_emails_message_id extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "emails_message_id_index" on "emails" ("message_id") where "message_id" is not null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop index "emails_message_id_index";`);
  }
}
