import { Client, Connection, ScheduleAlreadyRunning } from '@temporalio/client';
import type { Duration } from '@temporalio/common';
import { connectionOptions, type TemporalSettings } from './connection-options.js';
import { domainRecheckScheduleId } from './shared/workflow-ids.js';

/**
 * The durable schedule that re-checks sending domains (DOMAIN_RECHECK_INTERVAL). Created when a
 * worker starts, or brought to the configured interval if it exists; operators see it, and can
 * pause or trigger it, in the Temporal UI.
 */
export async function ensureDomainRecheckSchedule({
  settings,
  every,
}: {
  settings: TemporalSettings;
  every: string;
}): Promise<void> {
  const connection = await Connection.connect(connectionOptions(settings));
  try {
    const client = new Client({ connection, namespace: settings.namespace });
    const scheduleId = domainRecheckScheduleId(settings.taskQueue);
    // The config accepts only `<n>s|m|h`, which is a Duration string.
    const spec = { intervals: [{ every: every as Duration }] };
    const action = {
      type: 'startWorkflow' as const,
      workflowType: 'recheckDomains',
      taskQueue: settings.taskQueue,
      workflowId: scheduleId,
    };
    try {
      await client.schedule.create({ scheduleId, spec, action, policies: { overlap: 'SKIP' } });
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule
        .getHandle(scheduleId)
        .update((previous) => ({ ...previous, spec, action }));
    }
  } finally {
    await connection.close();
  }
}
