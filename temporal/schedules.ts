import { Client, Connection, ScheduleAlreadyRunning } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import { connectionOptions, type TemporalSettings } from './connection-options.js';
import { retryTransient } from './retry-transient.js';
import {
  billingUsageScheduleId,
  domainRecheckScheduleId,
  emailDispatchScheduleId,
  eventCountsFoldScheduleId,
  segmentRecomputeScheduleId,
} from './shared/workflow-ids.js';

/**
 * The durable schedules the service runs: created when a worker starts, or brought to the
 * configured interval if they exist. Operators see them, and can pause or trigger them, in the
 * Temporal UI.
 */
export async function ensureSchedules({
  settings,
  domainRecheckEvery,
  emailDispatchEvery,
  segmentRecomputeEvery,
  billingReportEvery,
  eventCountsFoldEvery,
}: {
  settings: TemporalSettings;
  domainRecheckEvery: string;
  emailDispatchEvery: string;
  segmentRecomputeEvery: string;
  billingReportEvery: string;
  eventCountsFoldEvery: string;
}): Promise<void> {
  const connection = await Connection.connect(connectionOptions(settings));
  try {
    const client = new Client({ connection, namespace: settings.namespace });
    const schedules = [
      {
        scheduleId: domainRecheckScheduleId(settings.taskQueue),
        workflowType: 'recheckDomains',
        every: domainRecheckEvery,
      },
      {
        scheduleId: emailDispatchScheduleId(settings.taskQueue),
        workflowType: 'dispatchQueuedEmails',
        every: emailDispatchEvery,
      },
      {
        scheduleId: segmentRecomputeScheduleId(settings.taskQueue),
        workflowType: 'recomputeSegments',
        every: segmentRecomputeEvery,
      },
      {
        scheduleId: billingUsageScheduleId(settings.taskQueue),
        workflowType: 'reportBillingUsage',
        every: billingReportEvery,
      },
      {
        scheduleId: eventCountsFoldScheduleId(settings.taskQueue),
        workflowType: 'foldEventCounts',
        every: eventCountsFoldEvery,
      },
    ];
    for (const { scheduleId, workflowType, every } of schedules) {
      // The config accepts only `<n>s|m|h`, which is a Duration string.
      const spec = { intervals: [{ every: every as Duration }] };
      const action = {
        type: 'startWorkflow' as const,
        workflowType,
        taskQueue: settings.taskQueue,
        workflowId: scheduleId,
      };
      await retryTransient(async () => {
        try {
          await client.schedule.create({ scheduleId, spec, action, policies: { overlap: 'SKIP' } });
        } catch (error) {
          if (!(error instanceof ScheduleAlreadyRunning)) throw error;
          await client.schedule
            .getHandle(scheduleId)
            .update((previous) => ({ ...previous, spec, action }));
        }
      });
    }
  } finally {
    await connection.close();
  }
}
