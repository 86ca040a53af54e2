import type { WebhookDeliveryStatus } from '../../domain/webhooks/webhook-delivery-status.pure.js';
import type { WebhookPayload } from '../../domain/webhooks/webhook-rules.pure.js';
import { countDeleted, statusListing } from './rows.js';
import type { LaneClaim, Sql } from './sql.js';

export interface WebhookDeliveryRow {
  id: string;
  endpoint_id: string;
  event_id: string | null;
  type: string;
  payload: WebhookPayload;
  status: WebhookDeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_attempt_at: Date | null;
  response_status: number | null;
  response_body: string | null;
  latency_ms: number | null;
  last_error: string | null;
  delivered_at: Date | null;
  created_at: Date;
}

const COLUMNS = `x.id, x.endpoint_id, x.event_id, x.type, x.payload, x.status, x.attempts,
  x.next_attempt_at, x.last_attempt_at, x.response_status, x.response_body, x.latency_ms,
  x.last_error, x.delivered_at, x.created_at`;

/** An endpoint's delivery log, newest first, optionally of some statuses only. */
export const webhookDeliveryLog = statusListing<
  WebhookDeliveryRow,
  WebhookDeliveryStatus,
  'endpointId'
>({
  from: 'webhook_deliveries x',
  owner: ['endpointId', 'endpoint_id'],
  columns: COLUMNS,
});

/** A delivery that no event caused (a test event), due at once on `queue`. */
export async function insertWebhookDelivery(
  sql: Sql,
  {
    id,
    projectId,
    endpointId,
    payload,
    queue,
  }: { id: string; projectId: string; endpointId: string; payload: WebhookPayload; queue: string },
): Promise<WebhookDeliveryRow> {
  const [row] = await sql.query<WebhookDeliveryRow>(
    `INSERT INTO webhook_deliveries AS x (id, project_id, endpoint_id, type, payload, queue)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6)
     RETURNING ${COLUMNS}`,
    [id, projectId, endpointId, payload.type, JSON.stringify(payload), queue],
  );
  return row as WebhookDeliveryRow;
}

export async function findWebhookDelivery(
  sql: Sql,
  { endpointId, deliveryId }: { endpointId: string; deliveryId: string },
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await sql.query<WebhookDeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries x WHERE x.id = $1 AND x.endpoint_id = $2`,
    [deliveryId, endpointId],
  );
  return row;
}

/**
 * Makes one delivery that is not PENDING due again now, on `queue`, for one attempt (its
 * deadline is now: a failed retry is FAILED again, not retried for days). Undefined when there
 * is no such delivery or it is PENDING already.
 */
export async function retryWebhookDelivery(
  sql: Sql,
  { endpointId, deliveryId, queue }: { endpointId: string; deliveryId: string; queue: string },
): Promise<WebhookDeliveryRow | undefined> {
  const [row] = await sql.query<WebhookDeliveryRow>(
    `UPDATE webhook_deliveries x
        SET status = 'PENDING', next_attempt_at = now(), retry_until = now(), queue = $3,
            leased_until = NULL
      WHERE x.id = $1 AND x.endpoint_id = $2 AND x.status <> 'PENDING'
      RETURNING ${COLUMNS}`,
    [deliveryId, endpointId, queue],
  );
  return row;
}

/** Every FAILED delivery of the endpoint queued since `since`, due again (see the one above). */
export async function retryFailedWebhookDeliveries(
  sql: Sql,
  { endpointId, since, queue }: { endpointId: string; since: Date; queue: string },
): Promise<number> {
  // countDeleted counts the rows any statement without RETURNING touches.
  return countDeleted(
    sql,
    `UPDATE webhook_deliveries
        SET status = 'PENDING', next_attempt_at = now(), retry_until = now(), queue = $3,
            leased_until = NULL
      WHERE endpoint_id = $1 AND status = 'FAILED' AND created_at >= $2`,
    [endpointId, since, queue],
  );
}

/** A claimed delivery with what its attempt needs of its endpoint. */
export interface ClaimedDeliveryRow {
  id: string;
  endpoint_id: string;
  /** The payload as JSON text, the body sent and signed as it is (no parse and stringify). */
  body: string;
  attempts: number;
  created_at: Date;
  retry_until: Date | null;
  url: string;
  /** Encrypted. */
  secret: string;
  /** Encrypted; only while it still signs. */
  previous_secret: string | null;
}

/** A delivery of queue $1 due now that no lane holds (`d`: webhook_deliveries). */
const DUE_UNLEASED = `d.queue = $1 AND d.status = 'PENDING' AND d.next_attempt_at <= now()
  AND (d.leased_until IS NULL OR d.leased_until <= now())`;

const DISABLED_FOR_FAILING = 'The endpoint was disabled after failing for too long';

/**
 * How long after an endpoint is disabled for failing the claims look for deliveries queued for it
 * meanwhile (a dispatcher that read it enabled, committing after the disabling failed the rest).
 * That race lasts a dispatcher's transaction. The window keeps the sweep to endpoints disabled
 * lately: the rest of the time it joins nothing and costs nothing, where any endpoint ever
 * disabled for failing made every claim join the whole table.
 */
const SWEEP_WINDOW = '1 hour';

/**
 * Claims up to `limit` due PENDING deliveries of `queue` whose endpoint is enabled, for
 * `leaseSeconds` (`leased_until`: due again then, should the claimer die before recording the
 * attempt). The lease is in no index, so the claim is a HOT update; leased rows are passed over
 * in the due index (as many as the lanes have in flight). The claimed rows are found by their
 * ids in the primary key (a join with the CTE let the planner hash the whole table, the log
 * included). Due deliveries of an endpoint disabled for failing in the last `SWEEP_WINDOW` are
 * FAILED on the way (a dispatcher may have queued one while the endpoint was being disabled).
 */
export async function claimWebhookDeliveries(
  sql: Sql,
  claim: LaneClaim,
): Promise<ClaimedDeliveryRow[]> {
  return sql.query<ClaimedDeliveryRow>(
    `WITH swept AS (
       UPDATE webhook_deliveries d SET status = 'FAILED', last_error = $4
         FROM webhook_endpoints e
        WHERE e.disabled_for_failing AND e.disabled_at > now() - interval '${SWEEP_WINDOW}'
          AND d.endpoint_id = e.id AND ${DUE_UNLEASED}),
     due AS (
       SELECT d.id FROM webhook_deliveries d
         JOIN webhook_endpoints e ON e.id = d.endpoint_id AND e.enabled
        WHERE ${DUE_UNLEASED}
        ORDER BY d.next_attempt_at LIMIT $2
        FOR UPDATE OF d SKIP LOCKED),
     claimed AS (
       UPDATE webhook_deliveries d SET leased_until = now() + make_interval(secs => $3)
        WHERE d.id = ANY(ARRAY(SELECT id FROM due))
       RETURNING d.id, d.endpoint_id, d.payload::text AS body, d.attempts, d.created_at,
                 d.retry_until)
     SELECT c.*, e.url, e.secret,
            CASE WHEN e.previous_secret_expires_at > now() THEN e.previous_secret END AS previous_secret
       FROM claimed c JOIN webhook_endpoints e ON e.id = c.endpoint_id`,
    [claim.queue, claim.limit, claim.leaseSeconds, DISABLED_FOR_FAILING],
    'claim-webhook-deliveries',
  );
}

/** What one attempt came to: SUCCEEDED, PENDING again (`retryInSeconds`) or FAILED. */
export interface DeliveryAttempt {
  id: string;
  status: WebhookDeliveryStatus;
  /** Whether the endpoint answered 2xx. */
  ok: boolean;
  retryInSeconds: number | null;
  responseStatus: number | null;
  responseBody: string | null;
  latencyMs: number | null;
  error: string | null;
}

/**
 * Records a batch of attempts: each delivery's outcome, and each endpoint's run of failures (a
 * success ends it, a failure starts it when none runs; the endpoint row is written only when
 * that changes). Then disables the endpoints that failed here and whose failures have run for
 * `disableAfterSeconds`, failing their PENDING deliveries and leaving `queue` to mail their
 * owners. Answers the ids of the endpoints it disabled.
 */
export async function recordWebhookAttempts(
  sql: Sql,
  {
    attempts,
    disableAfterSeconds,
    queue,
  }: { attempts: DeliveryAttempt[]; disableAfterSeconds: number; queue: string },
): Promise<string[]> {
  if (attempts.length === 0) return [];
  const failing = await sql.query<{ endpoint_id: string }>(
    `WITH a AS (
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS a(id uuid, status text, ok boolean,
         "retryInSeconds" double precision, "responseStatus" int, "responseBody" text,
         "latencyMs" int, error text)),
     updated AS (
       UPDATE webhook_deliveries d
          SET status = a.status, attempts = d.attempts + 1, last_attempt_at = now(),
              leased_until = NULL,
              next_attempt_at = CASE WHEN a.status = 'PENDING'
                THEN now() + make_interval(secs => a."retryInSeconds") ELSE d.next_attempt_at END,
              response_status = a."responseStatus", response_body = a."responseBody",
              latency_ms = a."latencyMs", last_error = a.error,
              delivered_at = CASE WHEN a.ok THEN now() ELSE d.delivered_at END
         FROM a WHERE d.id = a.id AND d.status = 'PENDING'
       RETURNING d.endpoint_id, a.ok),
     per_endpoint AS (SELECT endpoint_id, bool_or(ok) AS ok FROM updated GROUP BY endpoint_id),
     runs AS (
       UPDATE webhook_endpoints e
          SET failing_since = CASE WHEN p.ok THEN NULL ELSE now() END
         FROM per_endpoint p
        WHERE e.id = p.endpoint_id AND (e.failing_since IS NULL) = NOT p.ok
       RETURNING 1)
     SELECT endpoint_id FROM per_endpoint WHERE NOT ok`,
    [JSON.stringify(attempts)],
    'record-webhook-attempts',
  );
  if (failing.length === 0) return [];
  return sql.transaction(async (tx) => {
    const disabled = await tx.query<{ id: string }>(
      `UPDATE webhook_endpoints
          SET enabled = false, disabled_for_failing = true, disabled_at = now(),
              notice_queue = $3, updated_at = now()
        WHERE id = ANY($1::uuid[]) AND enabled
          AND failing_since <= now() - make_interval(secs => $2)
       RETURNING id`,
      [failing.map((f) => f.endpoint_id), disableAfterSeconds, queue],
    );
    if (disabled.length === 0) return [];
    await tx.query(
      `UPDATE webhook_deliveries SET status = 'FAILED', last_error = $2
        WHERE endpoint_id = ANY($1::uuid[]) AND status = 'PENDING'`,
      [disabled.map((d) => d.id), DISABLED_FOR_FAILING],
    );
    return disabled.map((d) => d.id);
  });
}

/** An endpoint disabled for failing whose owners are still to be told. */
export interface DisabledNoticeRow {
  id: string;
  project_id: string;
  url: string;
  failing_since: Date | null;
  disabled_at: Date;
  owner_ids: string[];
}

export async function findDisabledEndpointNotices(
  sql: Sql,
  { queue }: { queue: string },
): Promise<DisabledNoticeRow[]> {
  return sql.query<DisabledNoticeRow>(
    `SELECT e.id, e.project_id, e.url, e.failing_since, e.disabled_at,
            coalesce(array_agg(m.user_id) FILTER (WHERE m.user_id IS NOT NULL), '{}') AS owner_ids
       FROM webhook_endpoints e
       LEFT JOIN project_members m ON m.project_id = e.project_id AND m.role = 'OWNER'
      WHERE e.notice_queue = $1
      GROUP BY e.id
      LIMIT 100`,
    [queue],
  );
}

export async function clearDisabledEndpointNotices(
  sql: Sql,
  { endpointIds }: { endpointIds: string[] },
): Promise<void> {
  if (endpointIds.length === 0) return;
  await sql.query('UPDATE webhook_endpoints SET notice_queue = NULL WHERE id = ANY($1::uuid[])', [
    endpointIds,
  ]);
}
