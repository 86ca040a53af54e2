import type { StepConfig, WorkflowGraph } from '../../domain/automation/step-config.pure.js';
import type { StepType, TransitionBranch } from '../../domain/automation/step-type.pure.js';
import type { TriggerType } from '../../domain/automation/trigger-type.pure.js';
import { likeSubstring } from '../../domain/shared/like-pattern.pure.js';
import { deleteOwnedRow, findOwnedRow } from './rows.js';
import type { InProject, Sql } from './sql.js';

export interface WorkflowRow {
  id: string;
  project_id: string;
  name: string;
  description: string | null;
  trigger_type: TriggerType;
  trigger_event: string | null;
  trigger_segment_id: string | null;
  enabled: boolean;
  allow_reentry: boolean;
  graph_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface WorkflowStepRow {
  id: string;
  workflow_id: string;
  type: StepType;
  name: string | null;
  config: StepConfig;
  position: { x: number; y: number } | null;
  created_at: Date;
  updated_at: Date;
}

export interface WorkflowTransitionRow {
  id: string;
  workflow_id: string;
  from_step_id: string;
  to_step_id: string;
  branch: TransitionBranch | null;
  created_at: Date;
}

const WORKFLOW_COLUMNS = `id, project_id, name, description, trigger_type, trigger_event,
  trigger_segment_id, enabled, allow_reentry, graph_id, created_at, updated_at`;

/** What the dispatcher matches an event's trigger key against (see the event outbox trigger). */
export const triggerKeyOf = ({
  trigger_type,
  trigger_event,
  trigger_segment_id,
}: Pick<WorkflowRow, 'trigger_type' | 'trigger_event' | 'trigger_segment_id'>): string | null =>
  trigger_type === 'EVENT'
    ? trigger_event
    : trigger_type === 'SEGMENT_ENTRY' && trigger_segment_id
      ? `segment-entry:${trigger_segment_id}`
      : null;

export async function insertWorkflow(
  sql: Sql,
  row: Pick<
    WorkflowRow,
    'id' | 'project_id' | 'name' | 'description' | 'trigger_event' | 'allow_reentry'
  >,
): Promise<WorkflowRow> {
  const [inserted] = await sql.query<WorkflowRow>(
    `INSERT INTO workflows (id, project_id, name, description, trigger_type, trigger_event,
                            trigger_key, enabled, allow_reentry, created_at, updated_at)
     VALUES ($1, $2, $3, $4, 'EVENT', $5, $5, false, $6, now(), now())
     RETURNING ${WORKFLOW_COLUMNS}`,
    [row.id, row.project_id, row.name, row.description, row.trigger_event, row.allow_reentry],
  );
  return inserted as WorkflowRow;
}

export async function findWorkflow(
  sql: Sql,
  {
    projectId,
    workflowId,
    lock = false,
  }: { projectId: string; workflowId: string; lock?: boolean },
): Promise<WorkflowRow | undefined> {
  const [row] = await sql.query<WorkflowRow>(
    `SELECT ${WORKFLOW_COLUMNS} FROM workflows WHERE id = $1 AND project_id = $2
     ${lock ? 'FOR UPDATE' : ''}`,
    [workflowId, projectId],
  );
  return row;
}

export async function listWorkflowRows(
  sql: Sql,
  {
    projectId,
    enabled,
    search,
    offset,
    limit,
  }: { projectId: string; enabled?: boolean; search?: string; offset: number; limit: number },
): Promise<{ rows: WorkflowRow[]; total: number }> {
  const where = `project_id = $1 AND ($2::boolean IS NULL OR enabled = $2)
    AND ($3::text IS NULL OR name ILIKE $3)`;
  const params = [projectId, enabled ?? null, search ? likeSubstring(search) : null];
  const [rows, [count]] = await Promise.all([
    sql.query<WorkflowRow>(
      `SELECT ${WORKFLOW_COLUMNS} FROM workflows WHERE ${where}
        ORDER BY created_at DESC, id DESC OFFSET $4 LIMIT $5`,
      [...params, offset, limit],
    ),
    sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM workflows WHERE ${where}`, params),
  ]);
  return { rows, total: count?.n ?? 0 };
}

/** Writes a workflow's own fields; the trigger key follows the trigger. */
export async function updateWorkflowRow(
  sql: Sql,
  row: Pick<
    WorkflowRow,
    | 'id'
    | 'name'
    | 'description'
    | 'trigger_type'
    | 'trigger_event'
    | 'trigger_segment_id'
    | 'enabled'
    | 'allow_reentry'
  >,
): Promise<WorkflowRow> {
  const [updated] = await sql.query<WorkflowRow>(
    `UPDATE workflows SET name = $2, description = $3, trigger_type = $4, trigger_event = $5,
            trigger_segment_id = $6, trigger_key = $7, enabled = $8, allow_reentry = $9,
            updated_at = now()
      WHERE id = $1 RETURNING ${WORKFLOW_COLUMNS}`,
    [
      row.id,
      row.name,
      row.description,
      row.trigger_type,
      row.trigger_event,
      row.trigger_segment_id,
      triggerKeyOf(row),
      row.enabled,
      row.allow_reentry,
    ],
  );
  return updated as WorkflowRow;
}

export async function deleteWorkflowRow(
  sql: Sql,
  { workflowId }: { workflowId: string },
): Promise<void> {
  await sql.query('DELETE FROM workflows WHERE id = $1', [workflowId]);
}

export async function listWorkflowSteps(
  sql: Sql,
  { workflowId }: { workflowId: string },
): Promise<WorkflowStepRow[]> {
  return sql.query<WorkflowStepRow>(
    `SELECT id, workflow_id, type, name, config, position, created_at, updated_at
       FROM workflow_steps WHERE workflow_id = $1 ORDER BY created_at, id`,
    [workflowId],
  );
}

export async function listWorkflowTransitions(
  sql: Sql,
  { workflowId }: { workflowId: string },
): Promise<WorkflowTransitionRow[]> {
  return sql.query<WorkflowTransitionRow>(
    `SELECT id, workflow_id, from_step_id, to_step_id, branch, created_at
       FROM workflow_transitions WHERE workflow_id = $1 ORDER BY created_at, id`,
    [workflowId],
  );
}

export async function insertWorkflowStep(
  sql: Sql,
  row: Pick<WorkflowStepRow, 'id' | 'workflow_id' | 'type' | 'name' | 'config' | 'position'>,
): Promise<WorkflowStepRow> {
  const [inserted] = await sql.query<WorkflowStepRow>(
    `INSERT INTO workflow_steps (id, workflow_id, type, name, config, position, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, now(), now())
     RETURNING id, workflow_id, type, name, config, position, created_at, updated_at`,
    [
      row.id,
      row.workflow_id,
      row.type,
      row.name,
      JSON.stringify(row.config),
      row.position && JSON.stringify(row.position),
    ],
  );
  return inserted as WorkflowStepRow;
}

export async function updateWorkflowStep(
  sql: Sql,
  row: Pick<WorkflowStepRow, 'id' | 'name' | 'config' | 'position'>,
): Promise<WorkflowStepRow> {
  const [updated] = await sql.query<WorkflowStepRow>(
    `UPDATE workflow_steps SET name = $2, config = $3, position = $4, updated_at = now()
      WHERE id = $1
      RETURNING id, workflow_id, type, name, config, position, created_at, updated_at`,
    [row.id, row.name, JSON.stringify(row.config), row.position && JSON.stringify(row.position)],
  );
  return updated as WorkflowStepRow;
}

/**
 * Deletes a step. With `splice`, the transitions that led to it lead to its next step first;
 * otherwise they go with it (as do its own).
 */
export async function deleteWorkflowStep(
  sql: Sql,
  { stepId, spliceTo }: { stepId: string; spliceTo: string | null },
): Promise<void> {
  if (spliceTo) {
    await sql.query('UPDATE workflow_transitions SET to_step_id = $2 WHERE to_step_id = $1', [
      stepId,
      spliceTo,
    ]);
  }
  await sql.query('DELETE FROM workflow_steps WHERE id = $1', [stepId]);
}

export async function insertWorkflowTransition(
  sql: Sql,
  row: Pick<WorkflowTransitionRow, 'id' | 'workflow_id' | 'from_step_id' | 'to_step_id' | 'branch'>,
): Promise<WorkflowTransitionRow> {
  const [inserted] = await sql.query<WorkflowTransitionRow>(
    `INSERT INTO workflow_transitions (id, workflow_id, from_step_id, to_step_id, branch, created_at)
     VALUES ($1, $2, $3, $4, $5, now())
     RETURNING id, workflow_id, from_step_id, to_step_id, branch, created_at`,
    [row.id, row.workflow_id, row.from_step_id, row.to_step_id, row.branch],
  );
  return inserted as WorkflowTransitionRow;
}

export async function deleteWorkflowTransition(
  sql: Sql,
  { workflowId, transitionId }: { workflowId: string; transitionId: string },
): Promise<boolean> {
  return deleteOwnedRow(
    sql,
    { table: 'workflow_transitions', ownerColumn: 'workflow_id' },
    { id: transitionId, ownerId: workflowId },
  );
}

/**
 * Makes `graph` the workflow's current graph (a new snapshot row), and drops the snapshot it
 * replaces unless an execution keeps it.
 */
export async function replaceWorkflowGraph(
  sql: Sql,
  {
    workflowId,
    graphId,
    graph,
    waitEvents,
  }: { workflowId: string; graphId: string; graph: WorkflowGraph; waitEvents: string[] },
): Promise<void> {
  await sql.query(
    `WITH previous AS (SELECT graph_id FROM workflows WHERE id = $1),
     added AS (
       INSERT INTO workflow_graphs (id, workflow_id, graph, wait_events, created_at)
       VALUES ($2, $1, $3, $4, now()) RETURNING id),
     pointed AS (UPDATE workflows SET graph_id = (SELECT id FROM added) WHERE id = $1)
     DELETE FROM workflow_graphs g USING previous p
      WHERE g.id = p.graph_id AND NOT EXISTS (SELECT 1 FROM executions x WHERE x.graph_id = g.id)`,
    [workflowId, graphId, JSON.stringify(graph), waitEvents],
  );
}

/** The ids among `templateIds` that are templates of the project. */
export async function existingTemplateIds(
  sql: Sql,
  { projectId, templateIds }: { projectId: string; templateIds: string[] },
): Promise<Set<string>> {
  if (templateIds.length === 0) return new Set();
  const rows = await sql.query<{ id: string }>(
    'SELECT id FROM templates WHERE project_id = $1 AND id = ANY($2::uuid[])',
    [projectId, templateIds],
  );
  return new Set(rows.map((r) => r.id));
}

export interface SegmentTriggerTarget {
  id: string;
  name: string;
  type: string;
  track_membership: boolean;
}

export async function findSegmentForTrigger(
  sql: Sql,
  { projectId, segmentId }: InProject<'segmentId'>,
): Promise<SegmentTriggerTarget | undefined> {
  return findOwnedRow<SegmentTriggerTarget>(
    sql,
    { table: 'segments', columns: 'id, name, type, track_membership' },
    { id: segmentId, ownerId: projectId },
  );
}

/** How many of each status the workflow's executions are in. */
export async function countExecutionsByStatus(
  sql: Sql,
  { workflowId }: { workflowId: string },
): Promise<Record<string, number>> {
  const rows = await sql.query<{ status: string; n: number }>(
    'SELECT status, count(*)::int AS n FROM executions WHERE workflow_id = $1 GROUP BY status',
    [workflowId],
  );
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

export async function hasActiveExecutions(
  sql: Sql,
  { workflowId }: { workflowId: string },
): Promise<boolean> {
  const rows = await sql.query(
    `SELECT 1 FROM executions WHERE workflow_id = $1 AND status IN ('RUNNING', 'WAITING') LIMIT 1`,
    [workflowId],
  );
  return rows.length > 0;
}

/** Workflows whose SEND_EMAIL steps use the template, with those steps. */
export async function workflowStepsUsingTemplate(
  sql: Sql,
  { projectId, templateId }: { projectId: string; templateId: string },
): Promise<
  { workflowId: string; workflowName: string; stepId: string; stepName: string | null }[]
> {
  return sql.query(
    `SELECT w.id AS "workflowId", w.name AS "workflowName", s.id AS "stepId", s.name AS "stepName"
       FROM workflow_steps s JOIN workflows w ON w.id = s.workflow_id
      WHERE w.project_id = $1 AND s.type = 'SEND_EMAIL' AND s.config ->> 'templateId' = $2
      ORDER BY w.name, s.created_at`,
    [projectId, templateId],
  );
}

/**
 * Workflows triggered by an event name, or waiting for it, or reading `field` in a condition, or
 * writing it (UPDATE_CONTACT's data, ADD_TAG's `tags`).
 */
export async function workflowsReferencing(
  sql: Sql,
  {
    projectId,
    event,
    field,
    segmentId,
  }: { projectId: string; event?: string; field?: string; segmentId?: string },
): Promise<{ id: string; name: string; enabled: boolean }[]> {
  return sql.query(
    `SELECT w.id, w.name, w.enabled FROM workflows w
      WHERE w.project_id = $1 AND (
        ($2::text IS NOT NULL AND w.trigger_type = 'EVENT' AND w.trigger_event = $2)
        OR ($4::uuid IS NOT NULL AND w.trigger_segment_id = $4::uuid)
        OR EXISTS (
          SELECT 1 FROM workflow_steps s WHERE s.workflow_id = w.id AND (
            ($2::text IS NOT NULL AND s.type = 'WAIT_FOR_EVENT' AND s.config ->> 'eventName' = $2)
            OR ($3::text IS NOT NULL AND s.type = 'CONDITION'
                AND (s.config ->> 'field' = 'data.' || $3 OR starts_with(s.config ->> 'field', 'data.' || $3 || '.')))
            OR ($3::text IS NOT NULL AND s.type = 'UPDATE_CONTACT' AND s.config -> 'data' ? $3)
            OR ($3::text = 'tags' AND s.type = 'ADD_TAG'))))
      ORDER BY w.name, w.id`,
    [projectId, event ?? null, field ?? null, segmentId ?? null],
  );
}
