import { ActivityFailure, ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { ContactJobRequest } from '../../domain/shared/ports.js';
import type { Activities } from '../activities/index.js';

const { runContactJob } = proxyActivities<Activities>({
  // An import of 5 MB takes well under a minute; the heartbeat notices a dead worker sooner.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '10 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 20,
  },
});

const { failContactJob } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** An import or bulk job (`job-<id>`); its status and counts live in PostgreSQL. */
export async function contactJob(request: ContactJobRequest): Promise<void> {
  try {
    await runContactJob(request.jobId);
  } catch (error) {
    const cause = error instanceof ActivityFailure ? error.cause : error;
    const message =
      cause instanceof ApplicationFailure || cause instanceof Error
        ? cause.message
        : 'The job failed';
    await failContactJob(request.jobId, message);
    throw error;
  }
}
