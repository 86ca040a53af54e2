import type { Sql } from '../../db/sql/sql.js';
import {
  runDeliveryLane,
  type DeliverySlots,
  type LaneReport,
} from '../../domain/sending/delivery-lane.service.js';
import type {
  EmailDeliverySettings,
  Mailer,
  QueueWakeups,
  WorkflowEngine,
} from '../../domain/shared/ports.js';
import { heartbeating } from './heartbeating.js';

export function createEmailDeliveryActivities({
  sql,
  mailer,
  engine,
  wakeups,
  slots,
  delivery,
  encryptionKey,
  publicUrl,
  sendRatePerSecond,
}: {
  sql: Sql;
  mailer: Mailer;
  engine: WorkflowEngine;
  wakeups: QueueWakeups;
  slots: DeliverySlots;
  delivery: EmailDeliverySettings;
  encryptionKey: string;
  publicUrl: string;
  sendRatePerSecond: number;
}) {
  return {
    /** One run of a delivery lane of the email-delivery workflow. */
    async deliverQueuedEmails({ runForSeconds }: { runForSeconds: number }): Promise<LaneReport> {
      return heartbeating((_note, context) => {
        const { workflowExecution, activityId } = context.info;
        // Stable across retries of this lane's activity: a retry takes back what its dead attempt held.
        const token = `${workflowExecution?.workflowId}/${workflowExecution?.runId}/${activityId}`;
        return runDeliveryLane({
          sql,
          mailer,
          engine,
          wakeups,
          slots,
          queue: delivery.queue,
          token,
          runForMs: runForSeconds * 1000,
          signal: context.cancellationSignal,
          encryptionKey,
          publicUrl,
          ratePerSecond: sendRatePerSecond,
        });
      });
    },
    /**
     * Run by the `email-dispatch` schedule: makes sure the queue's delivery loop runs (an operator
     * may have terminated it), with this worker's settings.
     */
    async ensureEmailDelivery(): Promise<void> {
      await engine.ensureEmailDelivery(delivery);
    },
  };
}
