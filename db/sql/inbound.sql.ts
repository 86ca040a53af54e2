import { domainCoversHost } from './domain-match.js';
import type { Sql } from './sql.js';

/**
 * The project whose verified domain `host` is, or is a subdomain of (the most specific when
 * several match). Domains belong to one project each.
 */
export async function findInboundProject(
  sql: Sql,
  { host }: { host: string },
): Promise<string | undefined> {
  const [row] = await sql.query<{ project_id: string }>(
    `SELECT project_id FROM domains
      WHERE status = 'VERIFIED' AND ${domainCoversHost('domain', '$1')}
      ORDER BY length(domain) DESC LIMIT 1`,
    [host],
  );
  return row?.project_id;
}
