import {
  continueAsNew,
  isCancellation,
  proxyActivities,
  sleep,
  upsertMemo,
  workflowInfo,
} from '@temporalio/workflow';
import type { RetryPolicy } from '@temporalio/common';
import type { CampaignStatus } from '../../domain/campaigns/campaign-status.pure.js';
import type { CampaignSendInput } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';

const retry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
};

const { beginCampaignSend, finishCampaignSend } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry,
});

// Snapshots and queueing of large audiences take minutes; the heartbeat notices a dead worker
// in seconds, and the retried attempt goes on from the rows (each batch commits on its own).
const { snapshotCampaignAudience, queueCampaignEmails, watchCampaignSend } =
  proxyActivities<Activities>({
    startToCloseTimeout: '2 hours',
    heartbeatTimeout: '10 seconds',
    retry,
  });

/** How long one watch activity runs; the run continues as new between them when asked to. */
const WATCH_SECONDS = 600;
/** Far below Temporal's own limits: a long send's history stays small. */
const HISTORY_EVENTS_MAX = 2000;

export interface CampaignSendOutcome {
  status: CampaignStatus | null;
  recipients?: number;
  skipped?: number;
  queued?: number;
}

/**
 * A campaign's send (`campaign-<id>`): waits durably for its time, begins (SCHEDULED ->
 * SENDING), freezes the audience into recipient rows, queues their emails in batches for the
 * delivery lanes, and watches until every email is out of the queue; then SENT. Every step goes on
 * from what the rows say, so a worker killed at any point resumes without a recipient getting a
 * second email. A cancel moves the rows first (the API) and then cancels this run; the run also
 * stops by itself on finding the campaign no longer SENDING. `watching` marks a run continued as
 * new while it watched.
 */
export async function campaignSend(
  input: CampaignSendInput & { watching?: boolean },
): Promise<CampaignSendOutcome> {
  const { campaignId } = input;
  try {
    let outcome: CampaignSendOutcome = { status: 'SENDING' };
    if (!input.watching) {
      if (input.scheduledFor) {
        const wait = Date.parse(input.scheduledFor) - Date.now();
        if (wait > 0) await sleep(wait);
      }
      const begun = await beginCampaignSend({ campaignId });
      if (!begun.domainId) return { status: begun.status };
      const counts = await snapshotCampaignAudience({ campaignId });
      if (!counts) return { status: 'CANCELLED' };
      upsertMemo({ audienceSize: counts.recipients, skipped: counts.skipped });
      const { queued } = await queueCampaignEmails({ campaignId, domainId: begun.domainId });
      outcome = { status: 'SENDING', ...counts, queued };
    }
    for (;;) {
      const watched = await watchCampaignSend({ campaignId, forSeconds: WATCH_SECONDS });
      if (watched.done) return { ...outcome, status: await finishCampaignSend({ campaignId }) };
      if (watched.status !== 'SENDING') return { ...outcome, status: watched.status };
      if (workflowInfo().historyLength > HISTORY_EVENTS_MAX) {
        await continueAsNew<typeof campaignSend>({ ...input, watching: true });
      }
    }
  } catch (error) {
    // The API cancelled the campaign's rows before it cancelled this run.
    if (isCancellation(error)) return { status: 'CANCELLED' };
    throw error;
  }
}
