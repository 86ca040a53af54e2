import { Client, Connection } from '@temporalio/client';
import { inject } from 'vitest';

/**
 * Waits until a workflow run has closed and answers its result: after it, nothing that run does
 * can still happen (a retry, a second send), so a test can count what it did.
 */
export async function closedRunResult(
  workflowId: string,
  { timeoutMs = 60_000 }: { timeoutMs?: number } = {},
): Promise<unknown> {
  const connection = await Connection.connect({ address: inject('stack').temporalAddress });
  try {
    const handle = new Client({ connection }).workflow.getHandle(workflowId);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${workflowId} did not close within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([handle.result(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  } finally {
    await connection.close();
  }
}
