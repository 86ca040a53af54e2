/** PENDING until DKIM and SPF are found; FAILED when a verified domain's records go missing. */
export const DOMAIN_STATUSES = ['PENDING', 'VERIFIED', 'FAILED'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];
