import type { Orm } from '../../db/orm.js';
import type { Sql } from '../../db/sql/sql.js';
import type { DeliverySlots } from '../../domain/sending/delivery-lane.service.js';
import type {
  AutomationDispatchSettings,
  DnsResolver,
  EmailDeliverySettings,
  Mailer,
  QueueNotifier,
  PaymentProvider,
  QueueWakeups,
  WebhookSender,
  WorkflowEngine,
} from '../../domain/shared/ports.js';
import type { WebhookRetrySchedule } from '../../domain/webhooks/retry-schedule.pure.js';
import { createAutomationDispatchActivities } from './automation-dispatch.activities.js';
import { createBillingActivities } from './billing.activities.js';
import { createCampaignSendActivities } from './campaign-send.activities.js';
import { createContactJobActivities } from './contact-job.activities.js';
import { createDomainActivities } from './domain.activities.js';
import { createEmailDeliveryActivities } from './email-delivery.activities.js';
import { createExecutionStepActivities } from './execution-step.activities.js';
import { createInsightsActivities } from './insights.activities.js';
import { createSegmentActivities } from './segment.activities.js';
import { createSendEmailActivities } from './send-email.activities.js';
import { createSystemEmailActivities } from './system-email.activities.js';

export interface ActivityDeps {
  orm: Orm;
  sql: Sql;
  /** Connections for delivery lanes (commits need not wait for the disk; see worker-process). */
  deliverySql: Sql;
  mailer: Mailer;
  publicUrl: string;
  systemEmailFrom: string;
  importBatchSize: number;
  dns: DnsResolver;
  spfInclude: string;
  /** The host inbound mail goes to (INBOUND_MX_HOST); none when no mail is received. */
  mxHost?: string;
  /** The return-path host's first label (RETURN_PATH_PREFIX). */
  returnPathPrefix?: string;
  encryptionKey: string;
  /** Starts workflows from activities (retries of emails, the delivery loop). */
  engine: WorkflowEngine;
  /** Wakes this worker's delivery lanes when mail is queued. */
  wakeups: QueueWakeups;
  /** The process's SMTP connections, shared by its lanes. */
  deliverySlots: DeliverySlots;
  emailDelivery: EmailDeliverySettings;
  /** The payment provider (Stripe); undefined with billing off. */
  payments: PaymentProvider | undefined;
  /** Each project's send throttle, applied by the delivery lanes. */
  sendRatePerSecond: number;
  /** Contacts per transaction of a segment compute. */
  segmentComputeBatchSize: number;
  /** Wakes the delivery lanes of a queue (mail a workflow's SEND_EMAIL step queued). */
  emailNotifier: QueueNotifier;
  /** Wakes this worker's automation dispatch lanes when events are recorded. */
  dispatchWakeups: QueueWakeups;
  /** Wakes this worker's webhook lanes when the API queued deliveries (tests, retries). */
  webhookWakeups: QueueWakeups;
  automationDispatch: AutomationDispatchSettings;
  sendWebhook: WebhookSender;
  /** Sends event webhooks to customers' endpoints (the same address rules, connections kept). */
  sendEventWebhook: WebhookSender;
  /** When failed event webhooks are tried again, and when an endpoint is disabled. */
  webhookRetry: WebhookRetrySchedule;
  /** How often an idle webhook lane looks for deliveries that came due. */
  webhookPollMs: number;
  /** Recipients a campaign's send queues per statement. */
  campaignBatchSize: number;
  /** The longest one watch of a sending campaign runs (the workflow asks for at most 600 s). */
  campaignWatchSeconds: number;
}

export function createActivities(deps: ActivityDeps) {
  return {
    ...createSendEmailActivities({
      sql: deps.sql,
      mailer: deps.mailer,
      encryptionKey: deps.encryptionKey,
      publicUrl: deps.publicUrl,
    }),
    ...createEmailDeliveryActivities({
      sql: deps.deliverySql,
      mailer: deps.mailer,
      engine: deps.engine,
      wakeups: deps.wakeups,
      slots: deps.deliverySlots,
      delivery: deps.emailDelivery,
      encryptionKey: deps.encryptionKey,
      publicUrl: deps.publicUrl,
      sendRatePerSecond: deps.sendRatePerSecond,
    }),
    ...createDomainActivities({
      orm: deps.orm,
      dns: deps.dns,
      spfInclude: deps.spfInclude,
      mxHost: deps.mxHost,
      returnPathPrefix: deps.returnPathPrefix,
    }),
    ...createContactJobActivities({ sql: deps.sql, importBatchSize: deps.importBatchSize }),
    ...createSegmentActivities({
      sql: deps.sql,
      engine: deps.engine,
      batchSize: deps.segmentComputeBatchSize,
    }),
    ...createExecutionStepActivities({
      sql: deps.sql,
      emailNotifier: deps.emailNotifier,
      sendWebhook: deps.sendWebhook,
    }),
    ...createAutomationDispatchActivities({
      sql: deps.sql,
      emailNotifier: deps.emailNotifier,
      engine: deps.engine,
      wakeups: deps.dispatchWakeups,
      webhookWakeups: deps.webhookWakeups,
      dispatch: deps.automationDispatch,
      webhooks: {
        send: deps.sendEventWebhook,
        encryptionKey: deps.encryptionKey,
        schedule: deps.webhookRetry,
        idlePollMs: deps.webhookPollMs,
      },
    }),
    ...createCampaignSendActivities({
      sql: deps.sql,
      emailNotifier: deps.emailNotifier,
      deliveryQueue: deps.emailDelivery.queue,
      batchSize: deps.campaignBatchSize,
      watchSeconds: deps.campaignWatchSeconds,
      watchPollMs: 1000,
    }),
    ...createBillingActivities({ sql: deps.sql, payments: deps.payments, engine: deps.engine }),
    ...createInsightsActivities({ sql: deps.sql }),
    ...createSystemEmailActivities({
      orm: deps.orm,
      mailer: deps.mailer,
      publicUrl: deps.publicUrl,
      from: deps.systemEmailFrom,
    }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
