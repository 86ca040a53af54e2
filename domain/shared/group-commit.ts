/**
 * Group commit for small writes that arrive concurrently: a write submitted while its group
 * (e.g. its project) has a statement in flight waits, and all that waited go together in the
 * next statement, as one transaction. Nothing waits on a timer: a write to an idle group goes at
 * once, alone, so a lone request is as fast as before, and under load the groups grow by
 * themselves. A statement's per-row cost is a fraction of its fixed cost (parsing the input,
 * starting the plan, the triggers, the commit's WAL flush, a round trip).
 *
 * Invariants:
 * - Each write's promise settles only after the statement holding it committed (or failed).
 * - Writes with the same `distinctBy` key never share a statement (a row may be written once per
 *   statement); the later one waits for the next, so writes to one key keep their order.
 * - One statement per group is in flight at a time (per process), and its writes go in
 *   `distinctBy` order, so statements of one group from several processes lock rows in the same
 *   order and cannot deadlock each other.
 * - When a shared statement fails, each of its writes is tried again alone, in order: a write
 *   fails only for what is wrong with it (or with the database), never for a neighbour's input.
 *
 * Reads batch the same way without `distinctBy` (any items share a statement, in arrival order):
 * each answer still comes from a statement begun after it was asked, never from one already in
 * flight, so a batched read sees every change committed before it, as a lone read would.
 */
/** One item written (or read) with the others of its group that come meanwhile. */
export type GroupedWrite<I, O> = (group: string, item: I) => Promise<O>;

export function createGroupCommit<I, O>({
  write,
  distinctBy,
  maxBatch = 100,
}: {
  /** Writes `items` of `group` in one statement; answers one result per item, in their order. */
  write: (group: string, items: I[]) => Promise<O[]>;
  /** Items with the same key go in separate statements, in key order; none: any may share. */
  distinctBy?: (item: I) => string;
  maxBatch?: number;
}): GroupedWrite<I, O> {
  interface Waiting {
    item: I;
    key: string;
    resolve: (result: O) => void;
    reject: (error: unknown) => void;
  }
  // Groups with a statement in flight, and the writes waiting for the next one.
  const groups = new Map<string, Waiting[]>();

  const writeAlone = async (group: string, w: Waiting): Promise<void> => {
    try {
      const [result] = await write(group, [w.item]);
      w.resolve(result as O);
    } catch (error) {
      w.reject(error);
    }
  };

  const writeTogether = async (group: string, batch: Waiting[]): Promise<void> => {
    if (batch.length === 1) return writeAlone(group, batch[0] as Waiting);
    let results: O[];
    try {
      results = await write(
        group,
        batch.map((w) => w.item),
      );
    } catch {
      for (const w of batch) await writeAlone(group, w);
      return;
    }
    batch.forEach((w, i) => w.resolve(results[i] as O));
  };

  /** Takes the next statement's writes off `waiting`: at most maxBatch, distinct keys, sorted. */
  const nextBatch = (waiting: Waiting[]): Waiting[] => {
    if (!distinctBy) return waiting.splice(0, maxBatch);
    const batch: Waiting[] = [];
    const keys = new Set<string>();
    const rest: Waiting[] = [];
    for (const w of waiting) {
      if (batch.length < maxBatch && !keys.has(w.key)) {
        keys.add(w.key);
        batch.push(w);
      } else {
        // A key already taken stays taken for the rest, so a later write never overtakes it.
        keys.add(w.key);
        rest.push(w);
      }
    }
    waiting.splice(0, waiting.length, ...rest);
    return batch.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  };

  const drain = async (group: string, waiting: Waiting[]): Promise<void> => {
    while (waiting.length > 0) await writeTogether(group, nextBatch(waiting));
    groups.delete(group);
  };

  return (group, item) =>
    new Promise<O>((resolve, reject) => {
      const w: Waiting = { item, key: distinctBy?.(item) ?? '', resolve, reject };
      const waiting = groups.get(group);
      if (waiting) {
        waiting.push(w);
        return;
      }
      const fresh = [w];
      groups.set(group, fresh);
      void drain(group, fresh);
    });
}
