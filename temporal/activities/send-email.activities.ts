import { ApplicationFailure } from '@temporalio/activity';
import type { Sql } from '../../db/sql/sql.js';
import { deliverEmail, giveUpOnEmail } from '../../domain/sending/deliver.service.js';
import { MailDeliveryError, type Mailer } from '../../domain/shared/ports.js';
import { MAIL_DELIVERY_FAILURE, type MailDeliveryFailureDetails } from '../shared/failures.js';
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
      try {
        // Heartbeats while the SMTP transaction runs, so a killed worker is noticed in seconds.
        return await heartbeating(() =>
          deliverEmail({ sql, mailer, emailId, encryptionKey, publicUrl }),
        );
      } catch (error) {
        if (!(error instanceof MailDeliveryError)) throw error;
        // Retried like any failure; the relay's reply code goes with it, for the soft bounce
        // the workflow records if the retries run out.
        const details: MailDeliveryFailureDetails = { responseCode: error.responseCode };
        throw ApplicationFailure.create({
          message: error.message,
          type: MAIL_DELIVERY_FAILURE,
          details: [details],
        });
      }
    },
    async failEmail(emailId: string, error: string, responseCode?: number): Promise<void> {
      await giveUpOnEmail({ sql, emailId, error, responseCode });
    },
  };
}
