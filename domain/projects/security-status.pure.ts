/** A project's sending health: WARNING past the bounce or complaint thresholds. */
export const SECURITY_STATUSES = ['HEALTHY', 'WARNING', 'SUSPENDED'] as const;
export type SecurityStatus = (typeof SECURITY_STATUSES)[number];
