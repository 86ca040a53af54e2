import { rate } from '../shared/rates.pure.js';

// Open and click tracking, each on or off on its own, set at four levels. The most specific
// setting given wins: a /v1/send call's `tracking`, then the campaign's, then the template's,
// then the project's (on by default). The choice is made when an email is queued and kept on its
// row, so a retried or late email keeps it.

/** What an email can track, each switched on its own. */
export const TRACKING_KINDS = ['opens', 'clicks'] as const;
export type TrackingKind = (typeof TRACKING_KINDS)[number];

/** Where a setting can be given, most specific first: the order in which they are asked. */
export const TRACKING_LEVELS = ['send', 'campaign', 'template', 'project'] as const;
export type TrackingLevel = (typeof TRACKING_LEVELS)[number];

/** One level's own setting; null (or absent) leaves the kind to the next level. */
export type TrackingSetting = Partial<Record<TrackingKind, boolean | null>>;

/** What an email was queued with. */
export type TrackingChoice = Record<TrackingKind, boolean>;

/** When no level says anything: both tracked. */
export const DEFAULT_TRACKING: TrackingChoice = { opens: true, clicks: true };

/** A campaign's or a template's setting as stored and shown: null where it leaves the choice. */
export const storedTracking = (
  setting: TrackingSetting | undefined,
): Record<TrackingKind, boolean | null> => ({
  opens: setting?.opens ?? null,
  clicks: setting?.clicks ?? null,
});

/**
 * The rate of an engagement that may not have been tracked: null ("not tracked") when the
 * campaign has emails and none of them tracked it; else `part` over the sent emails that did
 * (0 when none was sent yet).
 */
export function trackedRate({
  part,
  trackedSent,
  tracked,
  emails,
}: {
  part: number;
  /** Sent emails that tracked it. */
  trackedSent: number;
  /** Emails (in any state) that track it. */
  tracked: number;
  emails: number;
}): number | null {
  if (emails > 0 && tracked === 0) return null;
  return rate(part, trackedSent);
}
