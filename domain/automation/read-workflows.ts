import { countExecutionsByStep } from '../../db/sql/executions.sql.js';
import { countExecutionsByStatus, listWorkflowRows } from '../../db/sql/workflows.sql.js';
import { eventNamesWithDataKeys } from '../../db/sql/events.sql.js';
import { type Sql } from '../../db/sql/sql.js';
import { listContactFields, type FieldInfo } from '../contacts/contact-fields.service.js';
import { pageResult, type PageResult } from '../shared/pagination.js';
import { enableProblems, loadGraph, requireWorkflow, type WorkflowRef } from './workflow-rules.js';
import {
  type WorkflowDetailView,
  type WorkflowView,
  countsOf,
  toStepView,
  toTransitionView,
  toWorkflowView,
} from './workflow-view.js';

export async function listWorkflows({
  sql,
  projectId,
  page,
  pageSize,
  enabled,
  search,
}: {
  sql: Sql;
  projectId: string;
  page: number;
  pageSize: number;
  enabled?: boolean;
  search?: string;
}): Promise<PageResult<WorkflowView>> {
  const { rows, total } = await listWorkflowRows(sql, {
    projectId,
    enabled,
    search,
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  return pageResult({ data: rows.map(toWorkflowView), total, page, pageSize });
}

export async function getWorkflow({
  sql,
  projectId,
  workflowId,
}: WorkflowRef): Promise<WorkflowDetailView> {
  const row = await requireWorkflow(sql, { projectId, workflowId });
  const [{ steps, transitions, graph }, counts] = await Promise.all([
    loadGraph(sql, workflowId),
    countExecutionsByStatus(sql, { workflowId }),
  ]);
  return {
    ...toWorkflowView(row),
    steps: steps.map(toStepView),
    transitions: transitions.map(toTransitionView),
    executions: countsOf(counts),
    problems: await enableProblems(sql, { workflow: row, graph }),
  };
}

export interface WorkflowFields {
  /** Contact fields a CONDITION reads: the standard ones and `data.<key>`, with their type. */
  fields: { field: string; type: FieldInfo['type']; coverage: number }[];
  /** Event names seen, with the `event.<key>` fields their data has (for workflows they trigger). */
  events: { name: string; fields: string[] }[];
}

/**
 * What a CONDITION step can read: contact fields (standard, and the data keys seen with their
 * inferred type and coverage), and per event name the data keys its latest events have. The
 * execution's `context.*` is free-form and not listed.
 */
export async function workflowFields({
  sql,
  projectId,
}: {
  sql: Sql;
  projectId: string;
}): Promise<WorkflowFields> {
  const [{ fields }, events] = await Promise.all([
    listContactFields({ sql, projectId }),
    eventNamesWithDataKeys(sql, { projectId, sample: 100 }),
  ]);
  return {
    fields: fields.map((f) => ({
      field: f.kind === 'standard' ? f.name : `data.${f.name}`,
      type: f.type,
      coverage: f.coverage,
    })),
    events: events.map((e) => ({ name: e.name, fields: e.keys.map((key) => `event.${key}`) })),
  };
}

/** Per step: how many executions passed it, are at it now, and ended there (EXITED or FAILED). */
export async function workflowStepCounts({ sql, projectId, workflowId }: WorkflowRef): Promise<{
  steps: { stepId: string; passed: number; here: number; exited: number; failed: number }[];
}> {
  await requireWorkflow(sql, { projectId, workflowId });
  const rows = await countExecutionsByStep(sql, { workflowId });
  return {
    steps: rows.map((r) => ({
      stepId: r.step_id,
      passed: r.passed,
      here: r.here,
      exited: r.exited,
      failed: r.failed,
    })),
  };
}
