/** Where a campaign is (decisions.md). DRAFT is the only state its content may change in. */
export const CAMPAIGN_STATUSES = [
  'DRAFT',
  'SCHEDULED',
  'SENDING',
  'SENT',
  'CANCELLED',
  'FAILED',
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A campaign with a send under way (or waiting for its time): it may be cancelled, not deleted. */
export const isActiveCampaign = (status: CampaignStatus): boolean =>
  status === 'SCHEDULED' || status === 'SENDING';

/** Who a campaign goes to: every contact, a segment's members, or the contacts a filter matches. */
export const AUDIENCE_TYPES = ['ALL', 'SEGMENT', 'FILTERED'] as const;
export type AudienceType = (typeof AUDIENCE_TYPES)[number];

/**
 * A recipient of a sent campaign: PENDING until its email is queued, SKIPPED when it may not get
 * one, CANCELLED when the campaign was cancelled before its email was queued.
 */
export const RECIPIENT_STATUSES = ['PENDING', 'QUEUED', 'SKIPPED', 'CANCELLED'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];

/** Why a recipient got no email (`unconfirmed`: waiting for its double opt-in confirmation). */
export const RECIPIENT_SKIP_REASONS = [
  'unsubscribed',
  'unconfirmed',
  'suppressed',
  'deleted',
] as const;
export type RecipientSkipReason = (typeof RECIPIENT_SKIP_REASONS)[number];
