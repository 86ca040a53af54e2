import { Connection } from '@temporalio/client';

/**
 * The dev server keeps its state in SQLite through modernc.org/sqlite. On an overloaded machine a
 * call whose deadline passes mid-statement interrupts the store's connection, and from then on
 * every call that reads the store answers `... operation failed. Error interrupted (9)` (or, the
 * same family, `SQL logic error`; temporalio/temporal#3784, #8017). Nothing but a restart brings
 * it back. A restart loses nothing: the store is a file, and every client reconnects by itself.
 */
const STUCK_STORE = /\binterrupted \(9\)|SQL logic error/;

export function isStuckStoreError(error: unknown): boolean {
  return error instanceof Error && STUCK_STORE.test(errorText(error));
}

function errorText(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.message} ${errorText(cause)}` : error.message;
}

export interface TemporalWatchdog {
  stop(): Promise<void>;
}

/**
 * Probes the server every `everyMs`; after `stuckProbesBeforeRestart` probes in a row that find
 * the store stuck, restarts it. A slow or unreachable server is left alone: only the store
 * fault that never heals by itself calls for a restart.
 */
export function watchTemporalDevServer({
  probe,
  restart,
  log,
  everyMs = 5_000,
  stuckProbesBeforeRestart = 3,
}: {
  probe: () => Promise<void>;
  restart: () => Promise<void>;
  log: (line: string) => void;
  everyMs?: number;
  stuckProbesBeforeRestart?: number;
}): TemporalWatchdog {
  let stopped = false;
  let stuckProbes = 0;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const round = async (): Promise<void> => {
    try {
      await probe();
      stuckProbes = 0;
    } catch (error) {
      if (!isStuckStoreError(error)) {
        stuckProbes = 0;
        return;
      }
      stuckProbes += 1;
      if (stuckProbes < stuckProbesBeforeRestart || stopped) return;
      stuckProbes = 0;
      log(`the Temporal dev server's store is stuck (${(error as Error).message}); restarting it`);
      await restart();
      log('the Temporal dev server restarted');
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = round()
        .catch((error: unknown) => log(`the Temporal watchdog failed a round: ${String(error)}`))
        .finally(schedule);
    }, everyMs);
    timer.unref();
  };
  schedule();
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/** A probe that reads the namespace from the server's store, as every start-up call does. */
export function namespaceProbe({
  address,
  namespace,
  timeoutMs = 10_000,
}: {
  address: string;
  namespace: string;
  timeoutMs?: number;
}): { probe: () => Promise<void>; close: () => Promise<void> } {
  let connection: Promise<Connection> | undefined;
  return {
    probe: async () => {
      connection ??= Connection.connect({ address, connectTimeout: timeoutMs });
      const current = await connection.catch((error: unknown) => {
        connection = undefined;
        throw error;
      });
      // An abort, not a deadline: under a deadline the client retries UNAVAILABLE until the
      // deadline passes and reports DEADLINE_EXCEEDED, which hides the store's own answer.
      await current.withAbortSignal(AbortSignal.timeout(timeoutMs), () =>
        current.workflowService.describeNamespace({ namespace }),
      );
    },
    close: async () => {
      const current = await connection?.catch(() => undefined);
      await current?.close();
    },
  };
}
