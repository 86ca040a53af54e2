/**
 * Gathers items and writes them in batches, one write at a time: a write starts when `batchSize`
 * items wait, when `flush()` is called, or `maxWaitMs` after the first item of a batch came;
 * what arrives meanwhile waits for the next write. A write that fails stops the batcher: `check()`
 * and `drain()` throw its error, and later items are kept unwritten.
 */
export function createRecordBatcher<T>({
  write,
  batchSize,
  maxWaitMs,
}: {
  write: (items: T[]) => Promise<void>;
  batchSize: number;
  maxWaitMs: number;
}) {
  let waiting: T[] = [];
  let running: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  let timer: NodeJS.Timeout | undefined;
  // flush() was called while a write ran: the next write starts as soon as it ends.
  let flushWanted = false;

  const start = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (running || failure || waiting.length === 0) return;
    flushWanted = false;
    const items = waiting;
    waiting = [];
    running = write(items).then(
      () => {
        running = undefined;
        if (waiting.length >= batchSize || flushWanted) start();
        else if (waiting.length > 0) arm();
      },
      (error: unknown) => {
        running = undefined;
        failure = { error };
      },
    );
  };
  const arm = (): void => {
    timer ??= setTimeout(start, maxWaitMs);
  };

  return {
    add(item: T): void {
      waiting.push(item);
      if (waiting.length >= batchSize) start();
      else arm();
    },
    /** Writes what waits now (after the write running, if one is). */
    flush(): void {
      if (running) flushWanted = true;
      else start();
    },
    /** Throws the error of a write that failed. */
    check(): void {
      if (failure) throw failure.error;
    },
    /** Writes everything added; throws the error of a write that failed. */
    async drain(): Promise<void> {
      while (!failure && (running || waiting.length > 0)) {
        if (running) await running;
        else start();
      }
      if (timer) clearTimeout(timer);
      timer = undefined;
      if (failure) throw failure.error;
    },
  };
}
