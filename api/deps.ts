import type { Orm } from '../db/orm.js';
import type { Sql } from '../db/sql/sql.js';
import type { AccountSettings } from '../domain/accounts/accounts.service.js';
import type { BillingDeps } from '../domain/billing/billing.service.js';
import type { AutomationDeps } from '../domain/automation/executions.service.js';
import type { CampaignDeps } from '../domain/campaigns/campaigns.service.js';
import type { DomainSettings } from '../domain/domains/domains.service.js';
import type {
  InstallationFeatures,
  SmtpSubmissionInfo,
} from '../domain/installation/installation-features.pure.js';
import type { ReportSettings } from '../domain/inbound/delivery-reports.service.js';
import type { FeedbackSettings } from '../domain/sending/delivery-feedback.service.js';
import type { SendDeps } from '../domain/sending/send.service.js';
import type { TrackWrites } from '../domain/events/track-writes.js';
import type { KeyLookup } from '../domain/projects/key-lookups.js';
import type { DnsResolver, RateLimiter, WorkflowEngine } from '../domain/shared/ports.js';
import type { LinkSettings } from '../domain/tracking/tracking.service.js';
import type { UploadSettings } from '../domain/uploads/uploads.service.js';
import type { WebhookSettings } from '../domain/webhooks/webhook-endpoints.service.js';
import type { Logger } from '../domain/shared/ports.js';

/** What the transport itself reads from configuration. */
export interface HttpSettings {
  /** Trust X-Forwarded-* headers (behind a proxy). */
  trustProxy: boolean;
  /** The API's public address (the OpenAPI server entry). */
  publicUrl: string;
  /** Session cookies are Secure (the public URL is https). */
  secureCookies: boolean;
}

/** Where the dashboard links a job's run (GET /config); no link when the URL is unknown. */
export interface TemporalUiSettings {
  url: string | null;
  namespace: string;
}

/**
 * Everything routes hand to domain functions. Configuration reaches them only through the
 * per-domain settings here, assembled once at start-up (runtime/app-deps.ts): a route never
 * picks a setting itself.
 */
export interface AppDeps {
  orm: Pick<Orm, 'em'>;
  /** Hand-written SQL on the pg pool (hot paths, set-based statements). */
  sql: Sql;
  engine: WorkflowEngine;
  dns: DnsResolver;
  rateLimiter: RateLimiter;
  /** API keys of this process's requests, looked up together when they come together. */
  keyLookup: KeyLookup;
  logger: Logger;
  http: HttpSettings;
  accounts: AccountSettings;
  domains: DomainSettings;
  sending: SendDeps;
  automation: AutomationDeps;
  /** Plain tracks of this process, written together when they come together. */
  trackWrites: TrackWrites;
  campaigns: CampaignDeps;
  links: LinkSettings;
  uploads: UploadSettings;
  feedback: FeedbackSettings;
  /** Delivery reports read at the return path, their raw messages under DATA_DIR. */
  reports: ReportSettings;
  features: InstallationFeatures;
  /** SMTP submission's host, ports and certificate (GET /config); null when it is off. */
  smtpSubmission: SmtpSubmissionInfo | null;
  temporalUi: TemporalUiSettings;
  billing: BillingDeps;
  webhooks: WebhookSettings;
}
