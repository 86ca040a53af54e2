// Deterministic workflow ids: a retried start with the same id is rejected, never doubled.
export const systemEmailWorkflowId = (requestId: string): string => `system-email-${requestId}`;
export { contactJobWorkflowId } from '../../domain/jobs/job-ids.pure.js';
/** One schedule per task queue (one per installation in production). */
export const domainRecheckScheduleId = (taskQueue: string): string => `domain-recheck-${taskQueue}`;
export const sendEmailWorkflowId = (emailId: string): string => `email-${emailId}`;
export const emailDispatchScheduleId = (taskQueue: string): string => `email-dispatch-${taskQueue}`;
/** The long-running delivery loop of a queue; its lanes deliver everything queued there. */
export const emailDeliveryWorkflowId = (queue: string): string => `email-delivery-${queue}`;
/** One compute at a time per segment: a second request joins the one that runs. */
export const segmentComputeWorkflowId = (segmentId: string): string =>
  `segment-compute-${segmentId}`;
/** One schedule per task queue: usage to Stripe (does nothing with billing off). */
export const billingUsageScheduleId = (taskQueue: string): string => `billing-usage-${taskQueue}`;
/** One schedule per task queue: the kept hourly email event counts, one row per finished hour. */
export const eventCountsFoldScheduleId = (taskQueue: string): string =>
  `event-counts-fold-${taskQueue}`;
export const segmentRecomputeScheduleId = (taskQueue: string): string =>
  `segment-recompute-${taskQueue}`;
export { executionWorkflowId } from '../../domain/automation/execution-ids.pure.js';
/** The long-running dispatch loop of a queue: it drains the event and command outboxes. */
export const automationDispatchWorkflowId = (queue: string): string =>
  `automation-dispatch-${queue}`;
export { campaignSendWorkflowId } from '../../domain/campaigns/campaign-ids.pure.js';
