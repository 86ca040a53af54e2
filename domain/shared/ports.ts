import type { KeyObject } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SignalOutcome } from '../automation/execution-command.pure.js';
import type { ExecutionInput } from '../automation/execution-contract.pure.js';
import type { ReceivedEvent } from '../automation/execution-path.pure.js';
import type { AttachmentDisposition } from '../sending/attachment-disposition.pure.js';
import type { SystemEmailKind } from '../system-email/system-email-kind.pure.js';

export type Em = EntityManager;

/** Structured logging, as the transport and the processes use it (pino's shape). */
export interface Logger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

export interface SystemEmailRequest {
  /** Unique per request; it names the durable workflow, so a retried start is a no-op. */
  requestId: string;
  kind: SystemEmailKind;
  userId: string;
  projectId?: string;
  /** BILLING_LIMIT_WARNING: the cap the project's usage reached 80 % of. */
  limit?: LimitNotice;
  /** WEBHOOK_ENDPOINT_DISABLED: the endpoint disabled, and since when it failed. */
  webhook?: WebhookEndpointNotice;
}

export interface WebhookEndpointNotice {
  url: string;
  /** ISO 8601. */
  failingSince: string;
}

export interface LimitNotice {
  category: string;
  used: number;
  cap: number;
  /** The month (UTC) as YYYY-MM-01. */
  periodStart: string;
}

/** Starts a queue's long-lived loop unless it runs; `configure` also hands a running one `settings`. */
type EnsureLoop<Settings> = (
  settings: Settings,
  options?: { configure?: boolean },
) => Promise<void>;

/** What the domain asks of the durable executor (implemented over Temporal). */
export interface WorkflowEngine {
  startSystemEmail(request: SystemEmailRequest): Promise<void>;
  /** Runs an import or bulk job (`job-<id>`). */
  startContactJob(request: ContactJobRequest): Promise<void>;
  /** Delivers one email that needs retrying, with backoff (`email-<id>`). */
  startSendEmail(request: SendEmailRequest): Promise<void>;
  /** The delivery loop of a queue (`email-delivery-<queue>`). */
  ensureEmailDelivery: EnsureLoop<EmailDeliverySettings>;
  /**
   * Recomputes a tracked segment's membership (`segment-compute-<id>`, one at a time per
   * segment): joins the compute that runs, or starts one, and answers its result.
   */
  computeSegment(request: SegmentComputeRequest): Promise<SegmentComputeResult>;
  /** Starts a segment's compute unless one runs, without waiting for it (the schedule). */
  startSegmentCompute(request: SegmentComputeRequest): Promise<void>;
  /** The automation dispatch loop of a queue (`automation-dispatch-<queue>`). */
  ensureAutomationDispatch: EnsureLoop<AutomationDispatchSettings>;
  /**
   * Starts an execution's durable run (`execution-<id>`, on its queue). A run that was started
   * before (even one that has ended) is left alone: a retried start is a no-op.
   */
  startExecution(start: ExecutionStart): Promise<void>;
  /** Hands a running execution an event; `ended` when its run is over (or never began). */
  signalExecution(request: { executionId: string; event: ReceivedEvent }): Promise<SignalOutcome>;
  /** Asks an execution's run to stop; a run that has ended is left as it is. */
  cancelExecution(request: { executionId: string }): Promise<void>;
  /**
   * Starts a campaign's send (`campaign-<id>`); a start repeated while that run lives finds it
   * (the campaign's status, moved with a compare-and-set, guards against a second send).
   */
  startCampaignSend(start: CampaignSendStart): Promise<void>;
  /** Asks a campaign's send to stop; a run that has ended is left as it is. */
  cancelCampaignSend(request: { campaignId: string }): Promise<void>;
  isReachable(): Promise<boolean>;
  /** Whether a worker has polled this engine's task queue within the last long poll. */
  hasLiveWorker(): Promise<boolean>;
}

/** What a campaign's send is handed: `scheduledFor` (ISO 8601) when it waits for its time. */
export interface CampaignSendInput {
  campaignId: string;
  projectId: string;
  scheduledFor: string | null;
}

export interface CampaignSendStart {
  input: CampaignSendInput;
  /** Shown beside the run in the Temporal UI. */
  memo: { campaignName: string; audienceType: string };
}

/** An execution's durable run as the dispatcher starts it. */
export interface ExecutionStart {
  input: ExecutionInput;
  /** Shown beside the run in the Temporal UI. */
  memo: { workflowName: string; contactEmail: string; trigger: string };
  /** The run starts this long after the call (its opening DELAY, taken up to by the caller). */
  startDelayMs?: number;
}

export type AutomationDispatchSettings = LaneLoopSettings;

export interface SegmentComputeRequest {
  segmentId: string;
  projectId: string;
}

/** What a compute changed: members that joined, that left, and the members after it. */
export interface SegmentComputeResult {
  added: number;
  removed: number;
  total: number;
}

export interface OutgoingMessage {
  from: string | { name: string; address: string };
  to: string | { name: string; address: string };
  subject: string;
  html: string;
  text: string;
  replyTo?: string;
  headers?: Record<string, string>;
  messageId?: string;
  /** The SMTP envelope, when MAIL FROM is not the From address (the email's return path). */
  envelope?: { from: string; to: string };
  attachments?: {
    filename: string;
    content: Buffer;
    contentType: string;
    cid?: string;
    contentDisposition: AttachmentDisposition;
  }[];
  /** DKIM-sign with the sending domain's key. */
  dkim?: {
    domainName: string;
    keySelector: string;
    /** PEM text, or a parsed key (much faster to sign with). */
    privateKey: string | KeyObject;
    headerFieldNames?: string;
  };
}

/**
 * An SMTP failure; `permanent` for 5xx answers, otherwise worth retrying. `senderRefused` when
 * the relay refused the envelope's sender (MAIL FROM): that says nothing of the recipient.
 */
export class MailDeliveryError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseCode?: number,
    readonly senderRefused = false,
  ) {
    super(message);
  }
}

export interface Mailer {
  send(message: OutgoingMessage): Promise<{ messageId: string }>;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

/** A fixed-window limiter shared by every API replica. */
export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

export interface ContactJobRequest {
  jobId: string;
  projectId: string;
}

/** DNS lookups with timeouts (DNS_SERVERS when set). Absent names and types answer []. */
export interface DnsResolver {
  /** TXT records as character-strings. */
  resolveTxt(name: string): Promise<string[][]>;
  resolveMx(name: string): Promise<{ exchange: string; priority: number }[]>;
  /** A and AAAA addresses together. */
  resolveAddresses(name: string): Promise<string[]>;
  resolveNs(name: string): Promise<string[]>;
}

export class DnsUnavailableError extends Error {}

/** A long-running loop of lane activities on a task queue (email delivery, automation dispatch). */
export interface LaneLoopSettings {
  /** The task queue whose work the loop's lanes take (mail queued there, events recorded there). */
  queue: string;
  /** Lanes (activities) running at once, spread over the queue's workers. */
  lanes: number;
  /** How long one lane activity runs before the next takes over. */
  laneSeconds: number;
}

export type EmailDeliverySettings = LaneLoopSettings;

/** Tells the delivery lanes of a queue that mail was queued there (after the commit). */
export interface QueueNotifier {
  queued(queue: string): void;
}

/**
 * Wakes delivery lanes when mail is queued (PostgreSQL LISTEN/NOTIFY). `generation` changes on
 * every wake-up, so a lane that found nothing can wait without missing one that came meanwhile.
 */
export interface QueueWakeups {
  generation(): number;
  /** Resolves once the generation differs from `since`, after `timeoutMs`, or on abort. */
  waitForChange(since: number, timeoutMs: number, signal?: AbortSignal): Promise<void>;
}

/** What each lane of a queue is given: the queue, its wake-ups, how long it runs, and its stop. */
export interface LaneRun {
  queue: string;
  wakeups: QueueWakeups;
  runForMs: number;
  signal: AbortSignal;
  /** How long a claimed row stays the lane's before another may claim it. */
  leaseSeconds?: number;
  /** How long the lane sleeps after finding nothing, unless a wake-up comes first. */
  idlePollMs?: number;
}

export interface SendEmailRequest {
  emailId: string;
  projectId: string;
}

/** Fetches a URL's body as text (SNS certificates and subscription confirmations). */
export type FetchText = (url: string) => Promise<string>;

/** An outbound request of a WEBHOOK step, rendered. */
export interface WebhookRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/** The status and the first bytes of the answer (redirects are answers, never followed). */
export interface WebhookResponse {
  status: number;
  body: string;
}

/**
 * Sends a webhook: the host is resolved once, every address checked, and the connection made
 * to the checked address. Throws WebhookRefusedError for an address it may not reach or a host
 * that does not exist (trying again cannot help), any other error for a failure worth retrying.
 */
export type WebhookSender = (request: WebhookRequest) => Promise<WebhookResponse>;

export class WebhookRefusedError extends Error {}

/** An invoice as the billing routes show it (amounts in the currency's smallest unit). */
export interface BillingInvoice {
  id: string;
  number: string | null;
  status: string | null;
  amount: number;
  currency: string;
  periodStart: string;
  periodEnd: string;
  hostedUrl: string | null;
}

/** A payment-provider event whose signature was checked. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** The event's object (a checkout session, a subscription...). */
  object: Record<string, unknown>;
}

/** The payment provider behind billing (Stripe). */
export interface PaymentProvider {
  /** Creates the project's customer; `idempotencyKey` makes a retried creation return the same one. */
  createCustomer(input: {
    projectId: string;
    name: string;
    idempotencyKey: string;
  }): Promise<{ id: string }>;
  createCheckoutSession(input: {
    customerId: string;
    projectId: string;
    successUrl: string;
    cancelUrl: string;
  }): Promise<{ id: string; url: string }>;
  createPortalSession(input: { customerId: string; returnUrl: string }): Promise<{ url: string }>;
  listInvoices(input: { customerId: string; limit: number }): Promise<BillingInvoice[]>;
  /**
   * Reports usage as a meter event; the provider de-duplicates on `identifier`, so reporting the
   * same one twice bills once.
   */
  reportMeterEvent(input: {
    customerId: string;
    value: number;
    category: string;
    identifier: string;
    at: Date;
  }): Promise<void>;
  /** The event in `rawBody` when `signature` signs it with the webhook secret, recently; else throws. */
  verifyEvent(input: { rawBody: string; signature: string }): PaymentEvent;
}
