import { Context } from '@temporalio/activity';
import type { Sql } from '../../db/sql/sql.js';
import { deliverEmail, failEmail } from '../../domain/sending/deliver.service.js';
import type { Mailer } from '../../domain/shared/ports.js';

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
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), 2000);
      try {
        return await deliverEmail({ sql, mailer, emailId, encryptionKey, publicUrl });
      } finally {
        clearInterval(beat);
      }
    },
    async failEmail(emailId: string, error: string): Promise<void> {
      await failEmail({ sql, emailId, error });
    },
  };
}
