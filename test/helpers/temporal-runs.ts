import { Client, Connection } from '@temporalio/client';
import { inject } from 'vitest';
import { eventually } from './eventually.js';

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

/**
 * Waits until a run has taken in the event `eventId` signalled to it as `signalName`: its history
 * holds that signal and a workflow task completed after it. By then the run has decided what the
 * event means for it, and what it did about it in that task (its local activities) is written.
 */
export async function signalTaken(
  workflowId: string,
  signalName: string,
  eventId: string,
  { timeoutMs = 30_000 }: { timeoutMs?: number } = {},
): Promise<void> {
  const connection = await Connection.connect({ address: inject('stack').temporalAddress });
  try {
    const handle = new Client({ connection }).workflow.getHandle(workflowId);
    let seen = 'no history yet';
    await eventually(
      async () => {
        const events = (await handle.fetchHistory()).events ?? [];
        const at = events.findIndex((event) => {
          const signal = event.workflowExecutionSignaledEventAttributes;
          const data = signal?.input?.payloads?.[0]?.data;
          if (signal?.signalName !== signalName || !data) return false;
          return (
            (JSON.parse(Buffer.from(data).toString('utf8')) as { id?: unknown }).id === eventId
          );
        });
        seen = at < 0 ? `no ${signalName} signal of ${eventId}` : 'no workflow task done since it';
        return at >= 0 && events.slice(at + 1).some((e) => e.workflowTaskCompletedEventAttributes);
      },
      { what: `${workflowId} to take in ${eventId}`, timeoutMs, describe: () => seen },
    );
  } finally {
    await connection.close();
  }
}
