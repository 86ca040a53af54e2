/** A campaign's email figures, as kept in campaign_figures (one column each). */
export interface CampaignEmailFigureCounts {
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  /** Every email row, and those that track opens (clicks), sent or not. */
  emails: number;
  open_tracked: number;
  click_tracked: number;
  /** Sent emails that tracked opens (clicks): what the rates are fractions of. */
  open_tracked_sent: number;
  click_tracked_sent: number;
}

/** A campaign's emails by status and its recipients, beside its figures (its own stats). */
export interface CampaignSendCounts {
  queued: number;
  failed: number;
  cancelled: number;
  recipients: number;
  skipped: number;
  pending: number;
  /** Recipients cancelled before their email was queued. */
  unqueued_cancelled: number;
}

const ENGAGEMENT: (keyof CampaignEmailFigureCounts)[] = [
  'sent',
  'delivered',
  'opened',
  'clicked',
  'bounced',
  'complained',
  'unsubscribed',
  'emails',
  'open_tracked',
  'click_tracked',
  'open_tracked_sent',
  'click_tracked_sent',
];
const SEND: (keyof CampaignSendCounts)[] = [
  'queued',
  'failed',
  'cancelled',
  'recipients',
  'skipped',
  'pending',
  'unqueued_cancelled',
];

/** Every figure campaignFigures answers with `send`. */
export const CAMPAIGN_FIGURES = [...ENGAGEMENT, ...SEND];

const summed = (columns: string[]): string =>
  columns.map((column) => `coalesce(sum(${column}), 0)::int AS ${column}`).join(', ');

/**
 * A one-row subquery: the figures of the campaign `campaignId` (an SQL expression), each a count
 * of its email rows that reached the state (from the first-time moments on the row, so a
 * duplicated callback counts once), and how many tracked opens and clicks (each chosen when the
 * email was queued); with `send`, its emails and recipients by status too. Read from the counts
 * triggers on emails and campaign_recipients keep per campaign and connection shard
 * (Migration20261214100000_campaign_figures): its cost does not grow with the mail sent, and
 * within one snapshot the sums equal the rows' counts.
 */
export const campaignFigures = (
  campaignId: string,
  { send = false }: { send?: boolean } = {},
): string =>
  `SELECT ${summed(send ? CAMPAIGN_FIGURES : ENGAGEMENT)}
     FROM campaign_figures WHERE campaign_id = ${campaignId}`;
