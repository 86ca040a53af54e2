import type { Sql } from '../../db/sql/sql.js';
import { deliverEmail, giveUpOnEmail } from '../../domain/sending/deliver.service.js';
import type { Mailer } from '../../domain/shared/ports.js';
import { heartbeating } from './heartbeating.js';

export function createSendEmailActivities({
  sql,
  mailer,
  encryptionKey,
  publicUrl,
}: {
  sql: Sql;
  mailer: Mailer;
  encryptionKey: string;
  publicUrl: string;
}) {
  return {
    async deliverEmail(emailId: string): Promise<string> {
      // Heartbeats while the SMTP transaction runs, so a killed worker is noticed in seconds.
      return heartbeating(() => deliverEmail({ sql, mailer, emailId, encryptionKey, publicUrl }));
    },
    async failEmail(emailId: string, error: string): Promise<void> {
      await giveUpOnEmail({ sql, emailId, error });
    },
  };
}
