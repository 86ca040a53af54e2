import type { CampaignEmailFigureCounts } from '../../db/sql/campaign-figures.sql.js';
import { trackedRate } from '../tracking/tracking-choice.pure.js';

// A campaign's engagement as the campaign stats and the insights show it.

/** The counts the API shows, without those kept for the rates. */
export type EngagementCounts = Pick<
  CampaignEmailFigureCounts,
  'sent' | 'delivered' | 'opened' | 'clicked' | 'bounced' | 'complained' | 'unsubscribed'
>;

/**
 * The open and click rates of a campaign's emails: fractions of the sent emails that tracked
 * them, null when none of its emails tracks them.
 */
export const engagementRates = (f: CampaignEmailFigureCounts) => ({
  openRate: trackedRate({
    part: f.opened,
    trackedSent: f.open_tracked_sent,
    tracked: f.open_tracked,
    emails: f.emails,
  }),
  clickRate: trackedRate({
    part: f.clicked,
    trackedSent: f.click_tracked_sent,
    tracked: f.click_tracked,
    emails: f.emails,
  }),
});
