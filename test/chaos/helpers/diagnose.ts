import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { executionWorkflowId } from '../../../temporal/shared/workflow-ids.js';
import type { ChaosStack } from './chaos-stack.js';

/** History events worth naming with their details when a run is stuck. */
const TELLING = /FAILED|TIMED_OUT|TERMINATED|CANCELED|COMPLETED$/;

/**
 * Words for executions that did not reach where a scenario expected (at most `limit`): each row,
 * its pending commands, its step log, and its Temporal run (status, history length and the kinds
 * of its events, failures with their message). For a timeout's message, so that a failure seen
 * once in CI says which part held the execution.
 */
export async function describeStrayExecutions(
  stack: ChaosStack,
  { workflowId, where, limit = 3 }: { workflowId: string; where: string; limit?: number },
): Promise<string> {
  const rows = await stack.query<{ id: string }>(
    `SELECT id, status, current_step_id, started_at, created_at, updated_at FROM executions
      WHERE workflow_id = $1 AND NOT (${where}) ORDER BY id LIMIT $2`,
    [workflowId, limit],
  );
  if (rows.length === 0) return 'no stray execution';
  const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS });
  try {
    const client = new Client({ connection, namespace: 'default' });
    const parts = await Promise.all(
      rows.map(async (row) => {
        const [commands, steps] = await Promise.all([
          stack.query(
            'SELECT kind, attempts, last_error, not_before FROM execution_commands WHERE execution_id = $1',
            [row.id],
          ),
          stack.query(
            'SELECT seq, step_id, status, started_at, finished_at, error FROM execution_steps WHERE execution_id = $1 ORDER BY seq',
            [row.id],
          ),
        ]);
        const run = await describeRun(client, executionWorkflowId(row.id));
        return JSON.stringify({ execution: row, commands, steps, run });
      }),
    );
    return parts.join('\n');
  } finally {
    await connection.close();
  }
}

async function describeRun(client: Client, workflowId: string): Promise<unknown> {
  try {
    const handle = client.workflow.getHandle(workflowId);
    const description = await handle.describe();
    const history = await handle.fetchHistory();
    const events = (history.events ?? []).map((event) => {
      const kind = (temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? '').replace(
        /^EVENT_TYPE_/,
        '',
      );
      if (!TELLING.test(kind)) return kind;
      const attributes = Object.entries(event).find(
        ([key, value]) => /Attributes$/.test(key) && value,
      );
      return { kind, attributes: JSON.stringify(attributes?.[1] ?? null).slice(0, 600) };
    });
    return {
      status: description.status.name,
      startTime: description.startTime,
      historyLength: description.historyLength,
      events,
    };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}
