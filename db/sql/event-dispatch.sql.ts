import type { ExecutionCommandKind } from '../../domain/automation/execution-command.pure.js';
import type { ExecutionStatus } from '../../domain/automation/execution-status.pure.js';
import type { ReceivedEvent } from '../../domain/automation/execution-path.pure.js';
import type { WorkflowGraph } from '../../domain/automation/step-config.pure.js';
import type { LaneClaim, Sql } from './sql.js';

export interface DispatchedBatch {
  /** Events taken from the outbox. */
  events: number;
  /** Executions started (rows and START commands written). */
  started: number;
  /** SIGNAL commands written. */
  signalled: number;
  /** Deliveries queued for the webhook endpoints that asked for these events. */
  webhooks: number;
}

// An event's time as webhook bodies carry it (ISO 8601 UTC, milliseconds).
const ISO_CREATED_AT = `to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Dispatches up to `limit` events of the outbox of `queues`, oldest first, in ONE statement (so
 * one transaction): takes them out of the outbox (rows other dispatchers hold are skipped), and
 * for each writes an execution with its START command for every enabled workflow of its trigger
 * key that the reentry rule lets start for the contact, and a SIGNAL command for every RUNNING or
 * WAITING execution of the contact whose graph waits for an event of that name, and a delivery
 * for every enabled webhook endpoint of the project that asked for the event's name. Nothing is
 * written for an event that matches nothing. New executions and deliveries belong to `queue`.
 */
export async function dispatchEventBatch(
  sql: Sql,
  { queues, queue, limit }: { queues: string[]; queue: string; limit: number },
): Promise<DispatchedBatch> {
  const [row] = await sql.query<DispatchedBatch>(
    `WITH claimed AS (
       DELETE FROM event_outbox o
        WHERE o.event_id IN (
          SELECT event_id FROM event_outbox WHERE queue = ANY($1::text[])
           ORDER BY event_id LIMIT $3 FOR UPDATE SKIP LOCKED)
        RETURNING o.event_id, o.project_id, o.contact_id, o.name, o.trigger_key),
     triggered AS (
       SELECT ev.event_id, ev.project_id, ev.contact_id, w.id AS workflow_id, w.graph_id,
              w.allow_reentry, jsonb_build_object('id', e.id, 'name', e.name, 'data', e.data,
                'createdAt', e.created_at) AS trigger_event
         FROM claimed ev
         JOIN workflows w ON w.project_id = ev.project_id AND w.trigger_key = ev.trigger_key
                         AND w.enabled AND w.graph_id IS NOT NULL
         JOIN events e ON e.id = ev.event_id),
     started AS (
       INSERT INTO executions (id, project_id, workflow_id, contact_id, graph_id, status, context,
                               trigger_event_id, trigger_event, queue, created_at, updated_at)
       SELECT uuid_generate_v7(), t.project_id, t.workflow_id, t.contact_id, t.graph_id, 'RUNNING',
              '{}', t.event_id, t.trigger_event, $2, now(), now()
         FROM triggered t
        WHERE t.allow_reentry OR NOT EXISTS (
          SELECT 1 FROM executions x WHERE x.workflow_id = t.workflow_id AND x.contact_id = t.contact_id)
        ORDER BY t.event_id
       ON CONFLICT DO NOTHING
       RETURNING id, queue),
     start_commands AS (
       INSERT INTO execution_commands (execution_id, kind, queue)
       SELECT id, 'START', queue FROM started
       RETURNING 1),
     signal_commands AS (
       INSERT INTO execution_commands (execution_id, kind, event_id, queue)
       SELECT x.id, 'SIGNAL', ev.event_id, x.queue
         FROM claimed ev
         JOIN executions x ON x.contact_id = ev.contact_id AND x.status IN ('RUNNING', 'WAITING')
         JOIN workflow_graphs g ON g.id = x.graph_id AND ev.name = ANY(g.wait_events)
        WHERE x.trigger_event_id IS DISTINCT FROM ev.event_id
       ON CONFLICT DO NOTHING
       RETURNING 1),
     webhook_deliveries_queued AS (
       INSERT INTO webhook_deliveries (id, project_id, endpoint_id, event_id, type, payload, queue)
       SELECT uuid_generate_v7(), ev.project_id, we.id, ev.event_id, e.name,
              jsonb_build_object('type', e.name, 'timestamp', ${ISO_CREATED_AT}, 'data',
                jsonb_build_object('id', e.id, 'name', e.name, 'createdAt', ${ISO_CREATED_AT},
                  'contact', jsonb_build_object('id', c.id, 'email', c.email), 'data', e.data)),
              $2
         FROM claimed ev
         JOIN webhook_endpoints we ON we.project_id = ev.project_id AND we.enabled
                                  AND ev.name = ANY(we.event_types)
         JOIN events e ON e.id = ev.event_id
         LEFT JOIN contacts c ON c.id = ev.contact_id
       ON CONFLICT DO NOTHING
       RETURNING 1)
     SELECT (SELECT count(*) FROM claimed)::int AS events,
            (SELECT count(*) FROM start_commands)::int AS started,
            (SELECT count(*) FROM signal_commands)::int AS signalled,
            (SELECT count(*) FROM webhook_deliveries_queued)::int AS webhooks`,
    [queues, queue, limit],
    'dispatch-events',
  );
  return row ?? { events: 0, started: 0, signalled: 0, webhooks: 0 };
}

export interface CommandRow {
  id: string;
  execution_id: string;
  kind: ExecutionCommandKind;
  event_id: string | null;
  attempts: number;
  /** The execution's status now (null when it is gone). */
  status: ExecutionStatus | null;
  /** When its run was started (null: not yet). */
  started_at: Date | null;
}

/**
 * Claims up to `limit` due commands of `queue` for `leaseSeconds` (they are due again then,
 * should the claimer die), START commands first, then in the order they were written.
 */
export async function claimCommands(
  sql: Sql,
  { queue, limit, leaseSeconds }: LaneClaim,
): Promise<CommandRow[]> {
  return sql.query<CommandRow>(
    `WITH claimed AS (
       UPDATE execution_commands SET not_before = now() + make_interval(secs => $3)
        WHERE id IN (
          SELECT id FROM execution_commands WHERE queue = $1 AND not_before <= now()
           ORDER BY not_before, id LIMIT $2 FOR UPDATE SKIP LOCKED)
        RETURNING id, execution_id, kind, event_id, attempts)
     SELECT c.*, x.status, x.started_at FROM claimed c LEFT JOIN executions x ON x.id = c.execution_id
      ORDER BY (c.kind = 'START') DESC, c.id`,
    [queue, limit, leaseSeconds],
    'claim-commands',
  );
}

export async function deleteCommands(sql: Sql, { ids }: { ids: string[] }): Promise<void> {
  if (ids.length === 0) return;
  await sql.query('DELETE FROM execution_commands WHERE id = ANY($1::uuid[])', [ids]);
}

/** Commands that failed: due again after their backoff, with the reason. */
export async function postponeCommands(
  sql: Sql,
  { failures }: { failures: { id: string; seconds: number; error: string }[] },
): Promise<void> {
  if (failures.length === 0) return;
  await sql.query(
    `UPDATE execution_commands c SET attempts = c.attempts + 1, last_error = f.error,
            not_before = now() + make_interval(secs => f.seconds)
       FROM jsonb_to_recordset($1::jsonb) AS f(id uuid, seconds double precision, error text)
      WHERE c.id = f.id`,
    [JSON.stringify(failures)],
  );
}

/** What starting an execution's workflow needs. */
export interface ExecutionStartRow {
  id: string;
  project_id: string;
  workflow_id: string;
  workflow_name: string;
  contact_id: string;
  contact_email: string;
  queue: string;
  graph: WorkflowGraph;
  context: Record<string, unknown>;
  trigger_event: ReceivedEvent | null;
}

/** Marks executions as running in Temporal (their workflow was started, or already was). */
export async function markExecutionsStarted(
  sql: Sql,
  { started }: { started: ReadonlySet<string> },
): Promise<void> {
  if (started.size === 0) return;
  await sql.query(
    'UPDATE executions SET started_at = coalesce(started_at, now()) WHERE id = ANY($1::uuid[])',
    [[...started]],
  );
}

export interface SignalledEventRow {
  id: string;
  name: string;
  data: Record<string, unknown>;
  created_at: Date;
}

/**
 * What a batch of commands needs: the START commands' executions and the SIGNAL commands' events,
 * each by id, in two statements (none for an empty list).
 */
export async function findCommandInputs(
  sql: Sql,
  { executionIds, eventIds }: { executionIds: string[]; eventIds: string[] },
): Promise<{ starts: Map<string, ExecutionStartRow>; events: Map<string, SignalledEventRow> }> {
  const [starts, events] = await Promise.all([
    executionIds.length === 0
      ? []
      : sql.query<ExecutionStartRow>(
          `SELECT x.id, x.project_id, x.workflow_id, w.name AS workflow_name, x.contact_id,
                  c.email AS contact_email, x.queue, g.graph, x.context, x.trigger_event
             FROM executions x
             JOIN workflows w ON w.id = x.workflow_id
             JOIN workflow_graphs g ON g.id = x.graph_id
             JOIN contacts c ON c.id = x.contact_id
            WHERE x.id = ANY($1::uuid[])`,
          [executionIds],
        ),
    eventIds.length === 0
      ? []
      : sql.query<SignalledEventRow>(
          'SELECT id, name, data, created_at FROM events WHERE id = ANY($1::uuid[])',
          [eventIds],
        ),
  ]);
  return {
    starts: new Map(starts.map((row) => [row.id, row])),
    events: new Map(events.map((row) => [row.id, row])),
  };
}
