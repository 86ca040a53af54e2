import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { SendEmailRequest } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';

const { deliverEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  // Temporary SMTP failures (4xx, dropped connections) are retried with backoff for a day.
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 minutes' },
  scheduleToCloseTimeout: '24 hours',
});

const { failEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One email (`email-<id>`) whose first attempt in a delivery lane failed temporarily: render,
 * DKIM-sign, deliver, retried with backoff for a day; its status lives in PostgreSQL.
 */
export async function sendEmail(request: SendEmailRequest): Promise<string> {
  try {
    return await deliverEmail(request.emailId);
  } catch (error) {
    const cause = error instanceof ActivityFailure && error.cause ? error.cause : error;
    await failEmail(request.emailId, cause instanceof Error ? cause.message : 'Delivery failed');
    return 'FAILED';
  }
}
