/**
 * SQL: the domain in column `domain` is the host bound at `host` or a parent of it (the SQL twin
 * of matchSenderDomain in domain/domains/sender-domain.pure.ts). Order by length(domain) DESC to
 * take the most specific.
 */
export const domainCoversHost = (domain: string, host: string): string =>
  `(lower(${domain}) = lower(${host})
    OR right(lower(${host}), length(${domain}) + 1) = '.' || lower(${domain}))`;
