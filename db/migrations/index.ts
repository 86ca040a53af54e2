import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261121102419_foundation } from './Migration20261121102419_foundation.js';
import { Migration20261121104556_contacts_events_jobs } from './Migration20261121104556_contacts_events_jobs.js';
import { Migration20261121112100_domains } from './Migration20261121112100_domains.js';
import { Migration20261121113500_templates } from './Migration20261121113500_templates.js';
import { Migration20261121114000_sending } from './Migration20261121114000_sending.js';
import { Migration20261121114500_uploads } from './Migration20261121114500_uploads.js';
import { Migration20261121120000_email_dispatch } from './Migration20261121120000_email_dispatch.js';
import { Migration20261121140000_email_delivery_queue } from './Migration20261121140000_email_delivery_queue.js';
import { Migration20261123100000_segments } from './Migration20261123100000_segments.js';
import { Migration20261124100000_automation } from './Migration20261124100000_automation.js';
import { Migration20261125100000_campaigns } from './Migration20261125100000_campaigns.js';
import { Migration20261126100000_billing } from './Migration20261126100000_billing.js';
import { Migration20261127100000_insights } from './Migration20261127100000_insights.js';
import { Migration20261127110000_inbound_mx } from './Migration20261127110000_inbound_mx.js';
import { Migration20261128100000_project_events } from './Migration20261128100000_project_events.js';
import { Migration20261129100000_sessions } from './Migration20261129100000_sessions.js';
import { Migration20261130100000_suppressions } from './Migration20261130100000_suppressions.js';
import { Migration20261201100000_return_path } from './Migration20261201100000_return_path.js';
import { Migration20261201110000_delivery_reports } from './Migration20261201110000_delivery_reports.js';
import { Migration20261205100000_webhook_endpoints } from './Migration20261205100000_webhook_endpoints.js';
import { Migration20261203100000_tracking_settings } from './Migration20261203100000_tracking_settings.js';
import { Migration20261202100000_delivery_reports_paging } from './Migration20261202100000_delivery_reports_paging.js';
import { Migration20261204100000_double_opt_in } from './Migration20261204100000_double_opt_in.js';
import { Migration20261206100000_import_staging } from './Migration20261206100000_import_staging.js';
import { Migration20261207110000_contact_event_summary } from './Migration20261207110000_contact_event_summary.js';
import { Migration20261207140000_emails_message_id } from './Migration20261207140000_emails_message_id.js';
import { Migration20261208100000_campaign_recipients_cascade } from './Migration20261208100000_campaign_recipients_cascade.js';
import { Migration20261209100000_webhook_deliveries_project_index } from './Migration20261209100000_webhook_deliveries_project_index.js';
import { Migration20261210100000_email_event_counts } from './Migration20261210100000_email_event_counts.js';
import { Migration20261211100000_webhook_delivery_leases } from './Migration20261211100000_webhook_delivery_leases.js';
import { Migration20261212100000_event_outbox_interest } from './Migration20261212100000_event_outbox_interest.js';
import { Migration20261213100000_email_event_hours_unfolded } from './Migration20261213100000_email_event_hours_unfolded.js';
import { Migration20261214100000_campaign_figures } from './Migration20261214100000_campaign_figures.js';
import { Migration20261215100000_uuid_v7_at } from './Migration20261215100000_uuid_v7_at.js';

export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261121102419_foundation', class: Migration20261121102419_foundation },
  {
    name: 'Migration20261121104556_contacts_events_jobs',
    class: Migration20261121104556_contacts_events_jobs,
  },
  { name: 'Migration20261121112100_domains', class: Migration20261121112100_domains },
  { name: 'Migration20261121113500_templates', class: Migration20261121113500_templates },
  { name: 'Migration20261121114000_sending', class: Migration20261121114000_sending },
  { name: 'Migration20261121114500_uploads', class: Migration20261121114500_uploads },
  { name: 'Migration20261121120000_email_dispatch', class: Migration20261121120000_email_dispatch },
  {
    name: 'Migration20261121140000_email_delivery_queue',
    class: Migration20261121140000_email_delivery_queue,
  },
  { name: 'Migration20261123100000_segments', class: Migration20261123100000_segments },
  { name: 'Migration20261124100000_automation', class: Migration20261124100000_automation },
  { name: 'Migration20261125100000_campaigns', class: Migration20261125100000_campaigns },
  { name: 'Migration20261126100000_billing', class: Migration20261126100000_billing },
  { name: 'Migration20261127100000_insights', class: Migration20261127100000_insights },
  { name: 'Migration20261127110000_inbound_mx', class: Migration20261127110000_inbound_mx },
  {
    name: 'Migration20261128100000_project_events',
    class: Migration20261128100000_project_events,
  },
  { name: 'Migration20261129100000_sessions', class: Migration20261129100000_sessions },
  { name: 'Migration20261130100000_suppressions', class: Migration20261130100000_suppressions },
  { name: 'Migration20261201100000_return_path', class: Migration20261201100000_return_path },
  {
    name: 'Migration20261201110000_delivery_reports',
    class: Migration20261201110000_delivery_reports,
  },
  {
    name: 'Migration20261202100000_delivery_reports_paging',
    class: Migration20261202100000_delivery_reports_paging,
  },
  {
    name: 'Migration20261203100000_tracking_settings',
    class: Migration20261203100000_tracking_settings,
  },
  { name: 'Migration20261204100000_double_opt_in', class: Migration20261204100000_double_opt_in },
  {
    name: 'Migration20261205100000_webhook_endpoints',
    class: Migration20261205100000_webhook_endpoints,
  },
  { name: 'Migration20261206100000_import_staging', class: Migration20261206100000_import_staging },
  {
    name: 'Migration20261207110000_contact_event_summary',
    class: Migration20261207110000_contact_event_summary,
  },
  {
    name: 'Migration20261207140000_emails_message_id',
    class: Migration20261207140000_emails_message_id,
  },
  {
    name: 'Migration20261208100000_campaign_recipients_cascade',
    class: Migration20261208100000_campaign_recipients_cascade,
  },
  {
    name: 'Migration20261209100000_webhook_deliveries_project_index',
    class: Migration20261209100000_webhook_deliveries_project_index,
  },
  {
    name: 'Migration20261210100000_email_event_counts',
    class: Migration20261210100000_email_event_counts,
  },
  {
    name: 'Migration20261211100000_webhook_delivery_leases',
    class: Migration20261211100000_webhook_delivery_leases,
  },
  {
    name: 'Migration20261212100000_event_outbox_interest',
    class: Migration20261212100000_event_outbox_interest,
  },
  {
    name: 'Migration20261213100000_email_event_hours_unfolded',
    class: Migration20261213100000_email_event_hours_unfolded,
  },
  {
    name: 'Migration20261214100000_campaign_figures',
    class: Migration20261214100000_campaign_figures,
  },
  { name: 'Migration20261215100000_uuid_v7_at', class: Migration20261215100000_uuid_v7_at },
];
