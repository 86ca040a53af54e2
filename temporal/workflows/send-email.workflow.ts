import {
  ActivityFailure,
  ApplicationFailure,
  proxyActivities,
  TimeoutFailure,
} from '@temporalio/workflow';
import type { SendEmailRequest } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';
import { MAIL_DELIVERY_FAILURE, type MailDeliveryFailureDetails } from '../shared/failures.js';

/** How long, and how far apart at most, an email refused for now is tried again. */
export interface SendEmailRetry {
  windowSeconds: number;
  maxIntervalSeconds: number;
}

/** A day, at most 10 minutes apart (EMAIL_RETRY_WINDOW, EMAIL_RETRY_MAX_INTERVAL). */
const DEFAULT_RETRY: SendEmailRetry = { windowSeconds: 24 * 3600, maxIntervalSeconds: 600 };

/**
 * A send-email run's input: its email and the install's retries (runs started before these were
 * passed take the defaults).
 */
export interface SendEmailRun extends SendEmailRequest {
  retry?: SendEmailRetry;
}

const { failEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** The last attempt's failure: a schedule-to-close timeout carries it as its cause. */
function lastFailure(error: unknown): unknown {
  const cause = error instanceof ActivityFailure ? (error.cause ?? error) : error;
  return cause instanceof TimeoutFailure && cause.cause ? cause.cause : cause;
}

/**
 * One email (`email-<id>`) whose first attempt in a delivery lane failed temporarily: render,
 * DKIM-sign, deliver, retried with backoff (for a day by default); its status lives in
 * PostgreSQL. When the retries run out, the last refusal (its reply code when the relay gave
 * one) fails the email and counts as a soft bounce.
 */
export async function sendEmail(request: SendEmailRun): Promise<string> {
  const retry = request.retry ?? DEFAULT_RETRY;
  const { deliverEmail } = proxyActivities<Activities>({
    startToCloseTimeout: '5 minutes',
    heartbeatTimeout: '10 seconds',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: `${retry.maxIntervalSeconds} seconds`,
    },
    scheduleToCloseTimeout: `${retry.windowSeconds} seconds`,
  });
  try {
    return await deliverEmail(request.emailId);
  } catch (error) {
    const cause = lastFailure(error);
    const details =
      cause instanceof ApplicationFailure && cause.type === MAIL_DELIVERY_FAILURE
        ? (cause.details?.[0] as MailDeliveryFailureDetails | undefined)
        : undefined;
    await failEmail(
      request.emailId,
      cause instanceof Error ? cause.message : 'Delivery failed',
      details?.responseCode,
    );
    return 'FAILED';
  }
}
