import type { Sql } from '../../db/sql/sql.js';
import { deliverEmail, failEmail } from '../../domain/sending/deliver.service.js';
import type { Mailer } from '../../domain/shared/ports.js';

export function createSendEmailActivities({
  sql,
  mailer,
  encryptionKey,
}: {
  sql: Sql;
  mailer: Mailer;
  encryptionKey: string;
}) {
  return {
    async deliverEmail(emailId: string): Promise<string> {
      return deliverEmail({ sql, mailer, emailId, encryptionKey });
    },
    async failEmail(emailId: string, error: string): Promise<void> {
      await failEmail({ sql, emailId, error });
    },
  };
}
