// Why an address is on a project's suppression list, and the policy that puts it there.

export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'soft_bounce'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** A project's bounce policy: what a hard bounce does, and how many soft bounces suppress. */
export interface BouncePolicy {
  /** A hard bounce suppresses the address (and unsubscribes its contact) at once. */
  suppressHardBounces: boolean;
  /** This many soft bounces of one address within the window suppress it. */
  softBounceLimit: number;
  softBounceWindowDays: number;
}

export const DEFAULT_BOUNCE_POLICY: BouncePolicy = {
  suppressHardBounces: true,
  softBounceLimit: 3,
  softBounceWindowDays: 30,
};

export const SOFT_BOUNCE_LIMIT_MAX = 100;
export const SOFT_BOUNCE_WINDOW_DAYS_MAX = 365;

/** The stored policy over the defaults (a project that never set one has `{}`). */
export const bouncePolicyOf = (stored: Partial<BouncePolicy> | null | undefined): BouncePolicy => ({
  ...DEFAULT_BOUNCE_POLICY,
  ...stored,
});
