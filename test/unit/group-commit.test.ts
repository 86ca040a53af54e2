import { describe, expect, it } from 'vitest';
import { createGroupCommit } from '../../domain/shared/group-commit.js';

interface Item {
  key: string;
  n: number;
}

/** A writer that records each statement and answers when `release` is called. */
function recordingWriter({ failWhen }: { failWhen?: (items: Item[]) => boolean } = {}) {
  const statements: { group: string; items: Item[] }[] = [];
  const gates: (() => void)[] = [];
  const write = async (group: string, items: Item[]): Promise<string[]> => {
    statements.push({ group, items });
    await new Promise<void>((resolve) => gates.push(resolve));
    if (failWhen?.(items)) throw new Error(`refused ${items.map((i) => i.n).join(',')}`);
    return items.map((i) => `${group}:${i.key}:${i.n}`);
  };
  /** Lets every statement started so far answer, until none is left waiting. */
  const releaseAll = async (): Promise<void> => {
    for (let round = 0; round < 100; round += 1) {
      await new Promise((r) => setImmediate(r));
      const open = gates.splice(0);
      if (open.length === 0) return;
      for (const release of open) release();
    }
  };
  return { statements, write, releaseAll };
}

const item = (key: string, n: number): Item => ({ key, n });

describe('createGroupCommit', () => {
  it('writes a lone item at once, alone, and the ones that came meanwhile together, in key order', async () => {
    const writer = recordingWriter();
    const submit = createGroupCommit<Item, string>({
      write: writer.write,
      distinctBy: (i) => i.key,
    });
    const first = submit('p1', item('m', 1));
    expect(writer.statements).toEqual([{ group: 'p1', items: [item('m', 1)] }]);
    const later = [
      submit('p1', item('z', 2)),
      submit('p1', item('a', 3)),
      submit('p1', item('k', 4)),
    ];
    expect(writer.statements).toHaveLength(1);
    await writer.releaseAll();
    expect(await first).toBe('p1:m:1');
    expect(await Promise.all(later)).toEqual(['p1:z:2', 'p1:a:3', 'p1:k:4']);
    expect(writer.statements.map((s) => s.items.map((i) => i.n))).toEqual([[1], [3, 4, 2]]);
  });

  it('keeps groups apart: another group does not wait for this one', async () => {
    const writer = recordingWriter();
    const submit = createGroupCommit<Item, string>({
      write: writer.write,
      distinctBy: (i) => i.key,
    });
    const results = [submit('p1', item('a', 1)), submit('p2', item('a', 2))];
    expect(writer.statements.map((s) => s.group)).toEqual(['p1', 'p2']);
    await writer.releaseAll();
    expect(await Promise.all(results)).toEqual(['p1:a:1', 'p2:a:2']);
  });

  it('never puts one key twice in a statement, and a key keeps its order', async () => {
    const writer = recordingWriter();
    const submit = createGroupCommit<Item, string>({
      write: writer.write,
      distinctBy: (i) => i.key,
    });
    const results = [
      submit('p1', item('a', 1)),
      submit('p1', item('a', 2)),
      submit('p1', item('b', 3)),
      submit('p1', item('a', 4)),
      submit('p1', item('c', 5)),
    ];
    await writer.releaseAll();
    await Promise.all(results);
    expect(writer.statements.map((s) => s.items.map((i) => i.n))).toEqual([[1], [2, 3, 5], [4]]);
  });

  it('holds a statement to maxBatch items: maxBatch go together, the next waits', async () => {
    const writer = recordingWriter();
    const submit = createGroupCommit<Item, string>({
      write: writer.write,
      distinctBy: (i) => i.key,
      maxBatch: 3,
    });
    const results = [submit('p1', item('x', 0))];
    for (let n = 1; n <= 4; n += 1) results.push(submit('p1', item(`k${n}`, n)));
    await writer.releaseAll();
    await Promise.all(results);
    expect(writer.statements.map((s) => s.items.length)).toEqual([1, 3, 1]);
  });

  it('tries each item of a failed statement alone: only the bad one fails', async () => {
    const writer = recordingWriter({ failWhen: (items) => items.some((i) => i.key === 'bad') });
    const submit = createGroupCommit<Item, string>({
      write: writer.write,
      distinctBy: (i) => i.key,
    });
    const first = submit('p1', item('first', 0));
    const good = submit('p1', item('good', 1));
    const bad = submit('p1', item('bad', 2));
    const other = submit('p1', item('other', 3));
    const settled = Promise.allSettled([first, good, bad, other]);
    await writer.releaseAll();
    const outcomes = await settled;
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[2] as PromiseRejectedResult).reason).toEqual(new Error('refused 2'));
    expect(writer.statements.map((s) => s.items.map((i) => i.n))).toEqual([
      [0],
      [2, 1, 3],
      [2],
      [1],
      [3],
    ]);
    // The group is free again: a new item goes at once.
    const again = submit('p1', item('late', 9));
    expect(writer.statements.at(-1)?.items).toEqual([item('late', 9)]);
    await writer.releaseAll();
    expect(await again).toBe('p1:late:9');
  });

  it('without distinctBy (reads) lets any items share a statement, in arrival order', async () => {
    const writer = recordingWriter();
    const submit = createGroupCommit<Item, string>({ write: writer.write, maxBatch: 3 });
    const keys = ['a', 'a', 'b', 'a', 'c'];
    const results = keys.map((key, i) => submit('p1', item(key, i + 1)));
    await writer.releaseAll();
    expect(await Promise.all(results)).toEqual(['p1:a:1', 'p1:a:2', 'p1:b:3', 'p1:a:4', 'p1:c:5']);
    expect(writer.statements.map((s) => s.items.map((i) => i.n))).toEqual([[1], [2, 3, 4], [5]]);
  });
});
