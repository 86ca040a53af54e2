import { z } from 'zod';
import type { TrackingKind } from './tracking-choice.pure.js';

// The `tracking` objects the API takes and shows, one field per tracking kind. Unknown keys are
// refused: a misspelt `{open: false}` must not leave the email tracked without a word.

const perKind = <T extends z.ZodType>(field: T) =>
  ({ opens: field, clicks: field }) satisfies Record<TrackingKind, T>;

/** A /v1/send call's or the project's own switches: each kind given, or left as it is. */
export const trackingSwitches = z
  .object(perKind(z.boolean().optional()))
  .strict()
  .meta({ description: 'Open and click tracking, each true (on) or false (off)' });
export type TrackingSwitches = z.infer<typeof trackingSwitches>;

/** A campaign's or a template's setting: null (or absent) leaves the kind to the next level. */
export const trackingOverride = z.object(perKind(z.boolean().nullable().optional())).strict().meta({
  description:
    "Open and click tracking for this one: true, false, or null to follow the template's (for a campaign) and then the project's setting",
});
export type TrackingOverride = z.infer<typeof trackingOverride>;

/** A campaign's or a template's setting as shown: null where it leaves the choice. */
export const trackingOverrideView = z.object(perKind(z.boolean().nullable()));

/** What is decided: the project's setting, or what an email was queued with. */
export const trackingChoiceView = z.object(perKind(z.boolean()));

/** A campaign's open or click rate as shown: null when its emails did not track that kind. */
export const notTracked = <T extends z.ZodType>(rate: T, kind: TrackingKind) =>
  rate
    .nullable()
    .describe(
      `Of the sent emails that tracked ${kind}; null when the campaign's emails did not track ${kind} ("not tracked")`,
    );
