import { copyWorkflow } from '../../db/sql/workflow-copy.sql.js';
import { notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { getWorkflow } from './read-workflows.js';
import type { WorkflowRef } from './workflow-rules.js';
import type { WorkflowDetailView } from './workflow-view.js';

/**
 * A disabled copy of the workflow, named "<name> (copy)", with its trigger, steps and
 * transitions: to reuse a flow, or to change one without stopping the original.
 */
export async function duplicateWorkflow({
  sql,
  projectId,
  workflowId,
}: WorkflowRef): Promise<WorkflowDetailView> {
  const copyId = newId();
  if (!(await copyWorkflow(sql, { projectId, workflowId, copyId }))) throw notFound('Workflow');
  return getWorkflow({ sql, projectId, workflowId: copyId });
}
