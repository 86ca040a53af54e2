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
      WHERE status = 'VERIFIED'
        AND (lower(domain) = lower($1) OR right(lower($1), length(domain) + 1) = '.' || lower(domain))
      ORDER BY length(domain) DESC LIMIT 1`,
    [host],
  );
  return row?.project_id;
}
