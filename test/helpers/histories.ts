import { execFile } from 'node:child_process';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { ROOT } from './processes.js';

export const HISTORIES_DIR = path.join(ROOT, 'test/replay/histories');

/**
 * Keeps the history of a finished run as the replay fixture of its workflow: written when none
 * is committed yet, or when UPDATE_HISTORIES=1 (after an intended, versioned workflow change).
 * The CLI writes the same JSON that the Temporal UI downloads, which the replayer reads.
 */
export async function keepHistory(
  name: string,
  workflowId: string,
  runId?: string,
  /** A Temporal server of the test file's own; the run's shared one otherwise. */
  address = inject('stack').temporalAddress,
): Promise<void> {
  const file = path.join(HISTORIES_DIR, `${name}.json`);
  const exists = await access(file).then(
    () => true,
    () => false,
  );
  if (exists && process.env.UPDATE_HISTORIES !== '1') return;
  const stack = inject('stack');
  const { stdout } = await promisify(execFile)(
    stack.temporalCli,
    [
      'workflow',
      'show',
      '--workflow-id',
      workflowId,
      ...(runId ? ['--run-id', runId] : []),
      '--address',
      address,
      '--output',
      'json',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  await mkdir(HISTORIES_DIR, { recursive: true });
  await writeFile(file, `${JSON.stringify(JSON.parse(stdout), null, 2)}\n`);
}

/** Keeps the history of the first completed run of a scheduled workflow on a task queue. */
export async function keepHistoryOfCompletedRun(
  name: string,
  workflowType: string,
  taskQueue: string,
): Promise<void> {
  const { Client, Connection } = await import('@temporalio/client');
  const connection = await Connection.connect({ address: inject('stack').temporalAddress });
  try {
    const client = new Client({ connection });
    for await (const run of client.workflow.list({
      query: `WorkflowType = '${workflowType}' AND TaskQueue = '${taskQueue}' AND ExecutionStatus = 'Completed'`,
    })) {
      await keepHistory(name, run.workflowId);
      return;
    }
  } finally {
    await connection.close();
  }
}
