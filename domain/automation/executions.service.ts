import { findContact } from '../../db/sql/contacts.sql.js';
import {
  cancelExecutions,
  countExecutions,
  findExecution,
  insertManualExecution,
  listExecutionRows,
  type ExecutionRow,
  type ExecutionStepRow,
} from '../../db/sql/executions.sql.js';
import { findContactsByEmail } from '../../db/sql/contacts.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { conflict, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { newestFirstPage, type CursorPage, type PageRequest } from '../shared/pagination.js';
import type { QueueNotifier } from '../shared/ports.js';
import type { ExecutionStatus, StepRunStatus } from './execution-status.pure.js';
import { executionWorkflowId } from './execution-ids.pure.js';
import type { StepType } from './step-type.pure.js';
import { requireWorkflow, type WorkflowRef } from './workflow-rules.js';

/** What the API's automation routes need: the pool, this API's task queue, and its wake-up. */
export interface AutomationDeps {
  sql: Sql;
  /** Manually started executions run on this task queue. */
  queue: string;
  /** Wakes the dispatcher of a queue (it carries out start and cancel commands). */
  dispatchNotifier: QueueNotifier;
}

export interface ExecutionStepView {
  seq: number;
  stepId: string;
  type: StepType;
  status: StepRunStatus;
  startedAt: string;
  finishedAt: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
}

export interface ExecutionView {
  id: string;
  workflowId: string;
  contactId: string;
  contactEmail: string;
  status: ExecutionStatus;
  currentStepId: string | null;
  context: Record<string, unknown>;
  triggerEvent: ExecutionRow['trigger_event'];
  exitReason: string | null;
  error: string | null;
  /** The id of its durable run: search for it in the Temporal UI. */
  temporalWorkflowId: string;
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  steps?: ExecutionStepView[];
}

const isoOrNull = (date: Date | string | null): string | null =>
  date === null ? null : new Date(date).toISOString();

const toStepView = (row: ExecutionStepRow): ExecutionStepView => ({
  seq: row.seq,
  stepId: row.step_id,
  type: row.type,
  status: row.status,
  startedAt: new Date(row.started_at).toISOString(),
  finishedAt: isoOrNull(row.finished_at),
  result: row.result,
  error: row.error,
});

export function toExecutionView(row: ExecutionRow & { steps?: ExecutionStepRow[] }): ExecutionView {
  return {
    id: row.id,
    workflowId: row.workflow_id,
    contactId: row.contact_id,
    contactEmail: row.contact_email,
    status: row.status,
    currentStepId: row.current_step_id,
    context: row.context,
    triggerEvent: row.trigger_event,
    exitReason: row.exit_reason,
    error: row.error,
    temporalWorkflowId: executionWorkflowId(row.id),
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
    startedAt: isoOrNull(row.started_at),
    finishedAt: isoOrNull(row.finished_at),
    ...(row.steps ? { steps: row.steps.map(toStepView) } : {}),
  };
}

/**
 * Starts an execution for one contact (by id or email) with an optional context. The row and its
 * START command are written first (the reentry rule holds under a unique key); the dispatcher
 * starts its durable run. 409 when the workflow is disabled or the reentry rule refuses.
 */
export async function startExecution({
  sql,
  queue,
  dispatchNotifier,
  projectId,
  workflowId,
  contact,
  context,
}: AutomationDeps & {
  projectId: string;
  workflowId: string;
  contact: { id: string } | { email: string };
  context?: Record<string, unknown>;
}): Promise<ExecutionView> {
  const workflow = await requireWorkflow(sql, { projectId, workflowId });
  if (!workflow.enabled || !workflow.graph_id) {
    throw conflict('The workflow is disabled', 'Enable it first (PATCH {enabled: true}).');
  }
  const contactId =
    'id' in contact
      ? (await findContact(sql, { projectId, contactId: contact.id }))?.id
      : (await findContactsByEmail(sql, { projectId, emails: [normaliseEmail(contact.email)] }))[0]
          ?.id;
  if (!contactId) throw notFound('Contact');
  const row = await insertManualExecution(sql, {
    id: newId(),
    projectId,
    workflowId,
    contactId,
    graphId: workflow.graph_id,
    context: context ?? {},
    queue,
    allowReentry: workflow.allow_reentry,
  });
  if (!row) {
    throw conflict(
      workflow.allow_reentry
        ? 'The contact already has a running or waiting execution of this workflow'
        : 'The contact already had an execution of this workflow, and it does not allow reentry',
      workflow.allow_reentry ? 'Wait for it to end, or cancel it.' : 'Set allowReentry to true.',
    );
  }
  dispatchNotifier.queued(queue);
  return toExecutionView(row);
}

/** A page of a workflow's executions, of the given statuses only when some are given. */
interface ExecutionsPageRequest extends WorkflowRef, PageRequest {
  statuses?: ExecutionStatus[];
}

export async function listExecutions({
  sql,
  projectId,
  workflowId,
  statuses,
  ...page
}: ExecutionsPageRequest): Promise<CursorPage<ExecutionView>> {
  await requireWorkflow(sql, { projectId, workflowId });
  const filter = { workflowId, statuses };
  return newestFirstPage(page, {
    rows: (after) => listExecutionRows(sql, { ...filter, ...after }),
    count: () => countExecutions(sql, filter),
    view: toExecutionView,
  });
}

export async function getExecution({
  sql,
  projectId,
  workflowId,
  executionId,
}: WorkflowRef & { executionId: string }): Promise<ExecutionView> {
  await requireWorkflow(sql, { projectId, workflowId });
  const row = await findExecution(sql, { workflowId, executionId });
  if (!row) throw notFound('Execution');
  return toExecutionView(row);
}

/** Wakes the dispatchers that carry the cancelled executions' commands. */
function wakeDispatchers(notifier: QueueNotifier, cancelled: { queue: string }[]): void {
  for (const queue of new Set(cancelled.map((c) => c.queue))) notifier.queued(queue);
}

/**
 * Cancels a RUNNING or WAITING execution: CANCELLED at once (no further step runs: each checks
 * first), and its durable run is cancelled by the dispatcher. 409 when it has already ended.
 */
export async function cancelExecution({
  sql,
  dispatchNotifier,
  projectId,
  workflowId,
  executionId,
}: WorkflowRef &
  Pick<AutomationDeps, 'dispatchNotifier'> & {
    executionId: string;
  }): Promise<ExecutionView> {
  await requireWorkflow(sql, { projectId, workflowId });
  const cancelled = await cancelExecutions(sql, { workflowId, executionId });
  const row = await findExecution(sql, { workflowId, executionId });
  if (!row) throw notFound('Execution');
  if (cancelled.length === 0) {
    throw conflict(`The execution has already ended (${row.status})`);
  }
  wakeDispatchers(dispatchNotifier, cancelled);
  return toExecutionView(row);
}

/** Cancels every RUNNING and WAITING execution of the workflow; answers how many. */
export async function cancelAllExecutions({
  sql,
  dispatchNotifier,
  projectId,
  workflowId,
}: WorkflowRef & Pick<AutomationDeps, 'dispatchNotifier'>): Promise<{ cancelled: number }> {
  await requireWorkflow(sql, { projectId, workflowId });
  const cancelled = await cancelExecutions(sql, { workflowId });
  wakeDispatchers(dispatchNotifier, cancelled);
  return { cancelled: cancelled.length };
}
