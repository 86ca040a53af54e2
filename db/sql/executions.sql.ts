import type {
  ExecutionStatus,
  FinalExecutionStatus,
  StepRunStatus,
} from '../../domain/automation/execution-status.pure.js';
import type { StepClosing } from '../../domain/automation/execution-contract.pure.js';
import type { ReceivedEvent } from '../../domain/automation/execution-path.pure.js';
import type { StepType } from '../../domain/automation/step-type.pure.js';
import { namedParams } from './named-params.js';
import { statusListing } from './rows.js';
import type { Sql } from './sql.js';

export interface ExecutionRow {
  id: string;
  project_id: string;
  workflow_id: string;
  contact_id: string;
  contact_email: string;
  status: ExecutionStatus;
  current_step_id: string | null;
  context: Record<string, unknown>;
  trigger_event: ReceivedEvent | null;
  exit_reason: string | null;
  error: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

export interface ExecutionStepRow {
  seq: number;
  step_id: string;
  type: StepType;
  status: StepRunStatus;
  started_at: Date;
  finished_at: Date | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

const EXECUTION_COLUMNS = `x.id, x.project_id, x.workflow_id, x.contact_id, c.email AS contact_email,
  x.status, x.current_step_id, x.context, x.trigger_event, x.exit_reason, x.error, x.created_at,
  x.updated_at, x.started_at, x.finished_at`;

/**
 * Inserts a manually started execution and its START command, unless the workflow's reentry
 * rule refuses it: allowReentry false and the contact had an execution of it before, or one is
 * RUNNING or WAITING. Answers the row, or undefined when refused.
 */
export async function insertManualExecution(
  sql: Sql,
  {
    id,
    projectId,
    workflowId,
    contactId,
    graphId,
    context,
    queue,
    allowReentry,
  }: {
    id: string;
    projectId: string;
    workflowId: string;
    contactId: string;
    graphId: string;
    context: Record<string, unknown>;
    queue: string;
    allowReentry: boolean;
  },
): Promise<ExecutionRow | undefined> {
  const [row] = await sql.query<ExecutionRow>(
    `WITH inserted AS (
       INSERT INTO executions (id, project_id, workflow_id, contact_id, graph_id, status, context,
                               queue, created_at, updated_at)
       SELECT $1, $2, $3, $4, $5, 'RUNNING', $6, $7, now(), now()
        WHERE $8::boolean OR NOT EXISTS (
          SELECT 1 FROM executions WHERE workflow_id = $3 AND contact_id = $4)
       ON CONFLICT DO NOTHING
       RETURNING *),
     commanded AS (
       INSERT INTO execution_commands (execution_id, kind, queue)
       SELECT id, 'START', queue FROM inserted)
     SELECT ${EXECUTION_COLUMNS} FROM inserted x JOIN contacts c ON c.id = x.contact_id`,
    [id, projectId, workflowId, contactId, graphId, JSON.stringify(context), queue, allowReentry],
  );
  return row;
}

export async function findExecution(
  sql: Sql,
  { workflowId, executionId }: { workflowId: string; executionId: string },
): Promise<(ExecutionRow & { steps: ExecutionStepRow[] }) | undefined> {
  const [row] = await sql.query<ExecutionRow & { steps: ExecutionStepRow[] }>(
    `SELECT ${EXECUTION_COLUMNS},
            coalesce((SELECT jsonb_agg(to_jsonb(s) - 'execution_id' ORDER BY s.seq)
                        FROM execution_steps s WHERE s.execution_id = x.id), '[]') AS steps
       FROM executions x JOIN contacts c ON c.id = x.contact_id
      WHERE x.id = $1 AND x.workflow_id = $2`,
    [executionId, workflowId],
  );
  return row;
}

/** Newest first after the keyset `afterId`; `limit + 1` rows. */
export const { list: listExecutionRows, count: countExecutions } = statusListing<
  ExecutionRow,
  ExecutionStatus,
  'workflowId'
>({
  from: 'executions x',
  owner: ['workflowId', 'workflow_id'],
  columns: EXECUTION_COLUMNS,
  joins: 'JOIN contacts c ON c.id = x.contact_id',
});

/**
 * Cancels the workflow's RUNNING and WAITING executions (only `executionId` when given): status
 * CANCELLED, their open step CANCELLED, and a CANCEL command each for Temporal. Answers the
 * cancelled ones with the queue whose dispatcher carries their commands.
 */
export async function cancelExecutions(
  sql: Sql,
  { workflowId, executionId }: { workflowId: string; executionId?: string },
): Promise<{ id: string; queue: string }[]> {
  return sql.query<{ id: string; queue: string }>(
    `WITH cancelled AS (
       UPDATE executions SET status = 'CANCELLED', finished_at = now(), updated_at = now()
        WHERE workflow_id = $1 AND ($2::uuid IS NULL OR id = $2::uuid)
          AND status IN ('RUNNING', 'WAITING')
        RETURNING id, queue),
     closed AS (
       UPDATE execution_steps s SET status = 'CANCELLED', finished_at = now()
         FROM cancelled c WHERE s.execution_id = c.id AND s.status = 'RUNNING'),
     commanded AS (
       INSERT INTO execution_commands (execution_id, kind, queue)
       SELECT id, 'CANCEL', queue FROM cancelled ON CONFLICT DO NOTHING)
     SELECT id, queue FROM cancelled`,
    [workflowId, executionId ?? null],
  );
}

/** The step an execution leaves, as the parameters of `closeStepSql`. */
const CLOSING = {
  closeSeq: null,
  closeStatus: null,
  closeResult: null,
  closeError: null,
} as const;

const closingValues = (close: StepClosing | undefined) => ({
  closeSeq: close?.seq ?? null,
  closeStatus: close?.status ?? null,
  closeResult: close?.result ? JSON.stringify(close.result) : null,
  closeError: close?.error ?? null,
});

/** The `closed` CTE: ends the step the execution leaves, if it is still RUNNING. */
const closeStepSql = ($: Record<keyof typeof CLOSING | 'executionId', string>) => `closed AS (
       UPDATE execution_steps
          SET status = ${$.closeStatus}, finished_at = now(), result = ${$.closeResult}::jsonb,
              error = ${$.closeError}
        WHERE execution_id = ${$.executionId} AND seq = ${$.closeSeq} AND status = 'RUNNING')`;

const BEGIN = namedParams({
  executionId: null,
  seq: null,
  stepId: null,
  type: null,
  waiting: null,
  ...CLOSING,
  context: 'jsonb',
});

const BEGIN_STEP_SQL = `WITH execution AS (
       -- A begin repeated after the run moved on (a retried start's opening steps, a replayed
       -- task) answers as before but never takes the execution back to an earlier step.
       UPDATE executions x
          SET status = CASE WHEN moved_on THEN x.status
                            WHEN ${BEGIN.$.waiting} THEN 'WAITING' ELSE 'RUNNING' END,
              current_step_id = CASE WHEN moved_on THEN x.current_step_id ELSE ${BEGIN.$.stepId} END,
              context = CASE WHEN moved_on THEN x.context ELSE coalesce(${BEGIN.$.context}, x.context) END,
              updated_at = now()
         FROM (SELECT EXISTS (SELECT 1 FROM execution_steps later
                               WHERE later.execution_id = ${BEGIN.$.executionId}
                                 AND later.seq > ${BEGIN.$.seq}) AS moved_on) m
        WHERE x.id = ${BEGIN.$.executionId} AND x.status IN ('RUNNING', 'WAITING')
        RETURNING x.id),
     ${closeStepSql(BEGIN.$)},
     begun AS (
       INSERT INTO execution_steps (execution_id, seq, step_id, type, status, started_at)
       SELECT id, ${BEGIN.$.seq}, ${BEGIN.$.stepId}, ${BEGIN.$.type}, 'RUNNING', now() FROM execution
       ON CONFLICT (execution_id, seq) DO UPDATE SET step_id = execution_steps.step_id
       RETURNING started_at)
     SELECT EXISTS (SELECT 1 FROM execution) AS active, (SELECT started_at FROM begun) AS started_at`;

/**
 * Records that an execution begins step `seq` (its status RUNNING, or WAITING for a DELAY or
 * WAIT_FOR_EVENT), closing the step it leaves and keeping its context, in one statement.
 * Idempotent: a repeated call finds the step begun and answers the same start time. `active`
 * is false when the execution is no longer RUNNING or WAITING (cancelled, or gone).
 */
export async function beginExecutionStep(
  sql: Sql,
  {
    close,
    context,
    ...step
  }: {
    executionId: string;
    seq: number;
    stepId: string;
    type: StepType;
    waiting: boolean;
    close?: StepClosing;
    context?: Record<string, unknown>;
  },
): Promise<{ active: boolean; startedAt: Date | null }> {
  const [row] = await sql.query<{ active: boolean; started_at: Date | null }>(
    BEGIN_STEP_SQL,
    BEGIN.values({
      ...step,
      ...closingValues(close),
      context: context ? JSON.stringify(context) : null,
    }),
    'execution-step-begin',
  );
  return { active: row?.active ?? false, startedAt: row?.started_at ?? null };
}

const FINISH = namedParams({
  executionId: null,
  status: null,
  exitReason: null,
  error: null,
  ...CLOSING,
  exitSeq: null,
  exitStepId: null,
  context: 'jsonb',
});

const FINISH_SQL = `WITH execution AS (
       UPDATE executions SET status = ${FINISH.$.status}, exit_reason = ${FINISH.$.exitReason},
              error = ${FINISH.$.error}, finished_at = now(), updated_at = now(),
              context = coalesce(${FINISH.$.context}, context),
              current_step_id = coalesce(${FINISH.$.exitStepId}::uuid, current_step_id)
        WHERE id = ${FINISH.$.executionId} AND status IN ('RUNNING', 'WAITING')
        RETURNING id),
     ${closeStepSql(FINISH.$)},
     exited AS (
       INSERT INTO execution_steps (execution_id, seq, step_id, type, status, started_at,
                                    finished_at, result)
       SELECT id, ${FINISH.$.exitSeq}, ${FINISH.$.exitStepId}, 'EXIT', 'COMPLETED', now(), now(),
              jsonb_build_object('reason', ${FINISH.$.exitReason}::text)
         FROM execution WHERE ${FINISH.$.exitSeq}::int IS NOT NULL
       ON CONFLICT (execution_id, seq) DO NOTHING)
     SELECT EXISTS (SELECT 1 FROM execution) AS ended`;

/**
 * Ends an execution: the step it leaves closed, an EXIT step recorded as COMPLETED when it ends
 * on one, the final status with its reason or error. Only an execution still RUNNING or WAITING
 * changes (a cancelled one stays CANCELLED); answers whether it did.
 */
export async function finishExecution(
  sql: Sql,
  {
    executionId,
    status,
    close,
    exitStep,
    exitReason,
    error,
    context,
  }: {
    executionId: string;
    status: FinalExecutionStatus;
    close?: StepClosing;
    exitStep?: { seq: number; stepId: string };
    exitReason?: string | null;
    error?: string | null;
    context?: Record<string, unknown>;
  },
): Promise<boolean> {
  const [row] = await sql.query<{ ended: boolean }>(
    FINISH_SQL,
    FINISH.values({
      executionId,
      status,
      exitReason: exitReason ?? null,
      error: error ?? null,
      ...closingValues(close),
      exitSeq: exitStep?.seq ?? null,
      exitStepId: exitStep?.stepId ?? null,
      context: context ? JSON.stringify(context) : null,
    }),
    'execution-finish',
  );
  return row?.ended ?? false;
}

/** Whether the execution may still run steps (RUNNING or WAITING). */
export async function isExecutionActive(
  sql: Sql,
  { executionId }: { executionId: string },
): Promise<boolean> {
  const rows = await sql.query(
    `SELECT 1 FROM executions WHERE id = $1 AND status IN ('RUNNING', 'WAITING')`,
    [executionId],
  );
  return rows.length > 0;
}

export interface StepCountRow {
  step_id: string;
  passed: number;
  here: number;
  exited: number;
  failed: number;
}

/**
 * Per step of a workflow: executions that completed it, executions at it now (RUNNING or
 * WAITING there), and executions that ended there EXITED or FAILED. One pass over the workflow's
 * executions (its index) and their step logs.
 */
export async function countExecutionsByStep(
  sql: Sql,
  { workflowId }: { workflowId: string },
): Promise<StepCountRow[]> {
  return sql.query<StepCountRow>(
    `WITH runs AS (SELECT id, status, current_step_id FROM executions WHERE workflow_id = $1),
          passed AS (
            SELECT s.step_id, count(DISTINCT s.execution_id)::int AS n
              FROM execution_steps s JOIN runs r ON r.id = s.execution_id
             WHERE s.status = 'COMPLETED'
             GROUP BY s.step_id),
          ended AS (
            SELECT current_step_id AS step_id,
                   count(*) FILTER (WHERE status IN ('RUNNING', 'WAITING'))::int AS here,
                   count(*) FILTER (WHERE status = 'EXITED')::int AS exited,
                   count(*) FILTER (WHERE status = 'FAILED')::int AS failed
              FROM runs WHERE current_step_id IS NOT NULL
             GROUP BY current_step_id)
     SELECT coalesce(p.step_id, e.step_id) AS step_id, coalesce(p.n, 0) AS passed,
            coalesce(e.here, 0) AS here, coalesce(e.exited, 0) AS exited,
            coalesce(e.failed, 0) AS failed
       FROM passed p FULL JOIN ended e ON e.step_id = p.step_id`,
    [workflowId],
  );
}
