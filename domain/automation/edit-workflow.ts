import {
  deleteWorkflowRow,
  hasActiveExecutions,
  insertWorkflow,
  replaceWorkflowGraph,
  updateWorkflowRow,
  type WorkflowRow,
} from '../../db/sql/workflows.sql.js';
import { type Sql } from '../../db/sql/sql.js';
import { canonicalEventName } from '../events/event-names.pure.js';
import { conflict } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { waitedEventNames } from './graph.pure.js';
import type { TriggerType } from './trigger-type.pure.js';
import { getWorkflow } from './read-workflows.js';
import {
  assertRunnable,
  enableProblems,
  loadGraph,
  nextTrigger,
  requireWorkflow,
  type WorkflowRef,
} from './workflow-rules.js';
import { countsOf, toWorkflowView, type WorkflowDetailView } from './workflow-view.js';

export interface CreateWorkflowInput {
  name: string;
  description?: string | null;
  triggerEvent: string;
  allowReentry?: boolean;
}

/** Starts EVENT-triggered and disabled, with no steps. */
export async function createWorkflow({
  sql,
  projectId,
  input,
}: {
  sql: Sql;
  projectId: string;
  input: CreateWorkflowInput;
}): Promise<WorkflowDetailView> {
  const row = await insertWorkflow(sql, {
    id: newId(),
    project_id: projectId,
    name: input.name,
    description: input.description ?? null,
    trigger_event: canonicalEventName(input.triggerEvent),
    allow_reentry: input.allowReentry ?? false,
  });
  return {
    ...toWorkflowView(row),
    steps: [],
    transitions: [],
    executions: countsOf({}),
    problems: await enableProblems(sql, { workflow: row, graph: { steps: [], transitions: [] } }),
  };
}

export interface WorkflowPatch {
  name?: string;
  description?: string | null;
  triggerType?: TriggerType;
  triggerConfig?: { eventName?: string; segmentId?: string };
  /** The event of an EVENT trigger, outside triggerConfig (also accepted as `eventName`). */
  triggerEvent?: string;
  enabled?: boolean;
  allowReentry?: boolean;
}

/**
 * Metadata, trigger, `enabled` and `allowReentry`. Enabling (or changing an enabled workflow)
 * checks that it can run: 422 naming each step at fault.
 */
export async function updateWorkflow({
  sql,
  projectId,
  workflowId,
  patch,
}: WorkflowRef & { patch: WorkflowPatch }): Promise<WorkflowDetailView> {
  await sql.transaction(async (tx) => {
    const current = await requireWorkflow(tx, { projectId, workflowId, lock: true });
    const trigger = await nextTrigger(tx, { current, patch });
    const next: WorkflowRow = {
      ...current,
      ...trigger,
      name: patch.name ?? current.name,
      description: patch.description === undefined ? current.description : patch.description,
      enabled: patch.enabled ?? current.enabled,
      allow_reentry: patch.allowReentry ?? current.allow_reentry,
    };
    if (next.enabled) {
      // Enabling takes the graph as it stands now; so does a trigger change of an enabled one.
      const { graph } = await loadGraph(tx, workflowId);
      await assertRunnable(tx, { workflow: next, graph });
      await replaceWorkflowGraph(tx, {
        workflowId,
        graphId: newId(),
        graph,
        waitEvents: waitedEventNames(graph),
      });
    }
    await updateWorkflowRow(tx, next);
  });
  return getWorkflow({ sql, projectId, workflowId });
}

/** Refused (409) while executions are RUNNING or WAITING; they must be cancelled or end first. */
export async function deleteWorkflow({ sql, projectId, workflowId }: WorkflowRef): Promise<void> {
  await sql.transaction(async (tx) => {
    await requireWorkflow(tx, { projectId, workflowId, lock: true });
    if (await hasActiveExecutions(tx, { workflowId })) {
      throw conflict(
        'The workflow has running or waiting executions',
        'Cancel them (POST /workflows/:id/executions/cancel-all) or let them finish first.',
      );
    }
    await deleteWorkflowRow(tx, { workflowId });
  });
}
