import { proxyActivities } from '@temporalio/workflow';
import type { SystemEmailRequest } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';

const { deliverSystemEmail } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '5 minutes' },
  // An account email older than a day is useless; give up rather than deliver it late.
  scheduleToCloseTimeout: '24 hours',
});

export async function sendSystemEmail(request: SystemEmailRequest): Promise<void> {
  await deliverSystemEmail(request);
}
