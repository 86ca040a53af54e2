import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';

const { recheckDomains: recheckDomainsActivity } = proxyActivities<Activities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '5 seconds', maximumAttempts: 3 },
});

/** Run by the `domain-recheck` schedule: looks every sending domain's DNS records up again. */
export async function recheckDomains(): Promise<{ checked: number; verified: number }> {
  return recheckDomainsActivity();
}
