import { deleteOwnedRow } from './rows.js';
import type { Sql } from './sql.js';

export interface WebhookEndpointRow {
  id: string;
  project_id: string;
  url: string;
  description: string | null;
  event_types: string[];
  enabled: boolean;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  failing_since: Date | null;
  disabled_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

// The secrets stay out of every read but the signing lane's.
const COLUMNS = `id, project_id, url, description, event_types, enabled, previous_secret_expires_at,
  secret_rotated_at, failing_since, disabled_at, created_at, updated_at`;

/**
 * Inserts an endpoint unless the project has `max` already: the project row is locked first, so
 * two creates at once cannot both take the last place. Undefined when the project is full.
 */
export async function insertWebhookEndpoint(
  sql: Sql,
  {
    id,
    projectId,
    url,
    description,
    eventTypes,
    enabled,
    secret,
    max,
  }: {
    id: string;
    projectId: string;
    url: string;
    description: string | null;
    eventTypes: string[];
    enabled: boolean;
    /** Encrypted. */
    secret: string;
    max: number;
  },
): Promise<WebhookEndpointRow | undefined> {
  return sql.transaction(async (tx) => {
    await tx.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
    const [row] = await tx.query<WebhookEndpointRow>(
      `INSERT INTO webhook_endpoints (id, project_id, url, description, event_types, enabled, secret)
       SELECT $1, $2, $3, $4, $5::text[], $6, $7
        WHERE (SELECT count(*) FROM webhook_endpoints WHERE project_id = $2) < $8
       RETURNING ${COLUMNS}`,
      [id, projectId, url, description, eventTypes, enabled, secret, max],
    );
    return row;
  });
}

export async function listWebhookEndpoints(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<WebhookEndpointRow[]> {
  return sql.query<WebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE project_id = $1 ORDER BY id`,
    [projectId],
  );
}

export async function findWebhookEndpoint(
  sql: Sql,
  { projectId, endpointId }: { projectId: string; endpointId: string },
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await sql.query<WebhookEndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND project_id = $2`,
    [endpointId, projectId],
  );
  return row;
}

/**
 * Changes what is given (null leaves a field as it is; `description` is replaced when
 * `setDescription`). Enabling an endpoint starts its failure count afresh.
 */
export async function updateWebhookEndpoint(
  sql: Sql,
  {
    projectId,
    endpointId,
    url,
    eventTypes,
    enabled,
    setDescription,
    description,
  }: {
    projectId: string;
    endpointId: string;
    url: string | null;
    eventTypes: string[] | null;
    enabled: boolean | null;
    setDescription: boolean;
    description: string | null;
  },
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await sql.query<WebhookEndpointRow>(
    `UPDATE webhook_endpoints
        SET url = coalesce($3, url),
            event_types = coalesce($4::text[], event_types),
            description = CASE WHEN $6::boolean THEN $7::text ELSE description END,
            failing_since = CASE WHEN $5::boolean AND NOT enabled THEN NULL ELSE failing_since END,
            disabled_for_failing = CASE WHEN $5::boolean THEN false ELSE disabled_for_failing END,
            disabled_at = CASE WHEN $5::boolean THEN NULL
                               WHEN NOT $5::boolean AND enabled THEN now() ELSE disabled_at END,
            enabled = coalesce($5::boolean, enabled),
            updated_at = now()
      WHERE id = $1 AND project_id = $2
      RETURNING ${COLUMNS}`,
    [endpointId, projectId, url, eventTypes, enabled, setDescription, description],
  );
  return row;
}

export const deleteWebhookEndpoint = (
  sql: Sql,
  { projectId, endpointId }: { projectId: string; endpointId: string },
): Promise<boolean> =>
  deleteOwnedRow(sql, { table: 'webhook_endpoints' }, { id: endpointId, ownerId: projectId });

/**
 * A new current secret; the one it replaces signs too until `overlapSeconds` from now (an older
 * previous secret is dropped). Both encrypted.
 */
export async function rotateWebhookSecret(
  sql: Sql,
  {
    projectId,
    endpointId,
    secret,
    overlapSeconds,
  }: { projectId: string; endpointId: string; secret: string; overlapSeconds: number },
): Promise<WebhookEndpointRow | undefined> {
  const [row] = await sql.query<WebhookEndpointRow>(
    `UPDATE webhook_endpoints
        SET previous_secret = CASE WHEN $4::int > 0 THEN secret END,
            previous_secret_expires_at =
              CASE WHEN $4::int > 0 THEN now() + make_interval(secs => $4::int) END,
            secret = $3, secret_rotated_at = now(), updated_at = now()
      WHERE id = $1 AND project_id = $2
      RETURNING ${COLUMNS}`,
    [endpointId, projectId, secret, overlapSeconds],
  );
  return row;
}
