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

// Typed tables: a figure added to either interface and not here fails to compile.
const ENGAGEMENT_COLUMNS = {
  sent: true,
  delivered: true,
  opened: true,
  clicked: true,
  bounced: true,
  complained: true,
  unsubscribed: true,
  emails: true,
  open_tracked: true,
  click_tracked: true,
  open_tracked_sent: true,
  click_tracked_sent: true,
} as const satisfies Record<keyof CampaignEmailFigureCounts, true>;
const SEND_COLUMNS = {
  queued: true,
  failed: true,
  cancelled: true,
  recipients: true,
  skipped: true,
  pending: true,
  unqueued_cancelled: true,
} as const satisfies Record<keyof CampaignSendCounts, true>;

const ENGAGEMENT = Object.keys(ENGAGEMENT_COLUMNS) as (keyof CampaignEmailFigureCounts)[];
const SEND = Object.keys(SEND_COLUMNS) as (keyof CampaignSendCounts)[];

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
