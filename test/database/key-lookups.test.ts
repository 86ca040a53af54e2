import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Sql } from '../../db/sql/sql.js';
import { createKeyLookups, lookupKeysAlone } from '../../domain/projects/key-lookups.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';

// The API looks up every request's key; concurrent lookups share statements, and an answer never
// comes from a statement begun before its lookup was asked (a rotated key stops working at once).

const { sql } = databasePool({ max: 4 });

/** The real pool, counting statements; `hold` keeps each answer back until `release()`. */
function countingSql({ hold = false }: { hold?: boolean } = {}) {
  let statements = 0;
  const held: (() => void)[] = [];
  const counted: Sql = {
    ...sql,
    query: async <T>(text: string, params?: unknown[], name?: string): Promise<T[]> => {
      statements += 1;
      const rows = await sql.query<T>(text, params, name);
      if (hold) await new Promise<void>((resolve) => held.push(resolve));
      return rows;
    },
  };
  return {
    sql: counted,
    statements: () => statements,
    release: () => held.splice(0).forEach((resolve) => resolve()),
  };
}

async function projectKeys(name: string) {
  const { projectId } = await seedProjectRows(sql, { name, contacts: 0 });
  const [row] = await sql.query<{ public_key: string; secret_key_hash: string }>(
    'SELECT public_key, secret_key_hash FROM projects WHERE id = $1',
    [projectId],
  );
  return { projectId, publicKey: row!.public_key, secretHash: row!.secret_key_hash };
}

describe('API key lookups', () => {
  it('answers concurrent lookups of many keys, known and unknown, from fewer statements', async () => {
    const a = await projectKeys('lookups a');
    const b = await projectKeys('lookups b');
    const counter = countingSql();
    const lookup = createKeyLookups({ sql: counter.sql });
    const asks = Array.from({ length: 60 }, (_, i) => {
      const project = i % 2 === 0 ? a : b;
      if (i % 5 === 0) return { kind: 'secret' as const, key: randomUUID(), expected: undefined };
      return i % 3 === 0
        ? { kind: 'public' as const, key: project.publicKey, expected: project.projectId }
        : { kind: 'secret' as const, key: project.secretHash, expected: project.projectId };
    });
    const found = await Promise.all(asks.map(({ kind, key }) => lookup({ kind, key })));
    expect(found.map((row) => row?.id)).toEqual(asks.map((ask) => ask.expected));
    expect(found.every((row) => row === undefined || row.disabled === false)).toBe(true);
    // One statement per kind at once, then the rest together: far fewer than the lookups.
    expect(counter.statements()).toBeLessThanOrEqual(4);

    // The same lookups one by one take a statement each.
    const alone = countingSql();
    const one = lookupKeysAlone({ sql: alone.sql });
    const again = await Promise.all(asks.map(({ kind, key }) => one({ kind, key })));
    expect(again.map((row) => row?.id)).toEqual(asks.map((ask) => ask.expected));
    expect(alone.statements()).toBe(asks.length);
  });

  it('a lookup asked while one is in flight sees a rotation committed before it was asked', async () => {
    const project = await projectKeys('lookups rotation');
    const counter = countingSql({ hold: true });
    const lookup = createKeyLookups({ sql: counter.sql });
    // In flight: its statement has run (the old key found) and its answer is held back.
    const before = lookup({ kind: 'secret', key: project.secretHash });
    await expect.poll(() => counter.statements()).toBe(1);
    await sql.query(`UPDATE projects SET secret_key_hash = $2 WHERE id = $1`, [
      project.projectId,
      randomUUID(),
    ]);
    const after = lookup({ kind: 'secret', key: project.secretHash });
    counter.release();
    expect((await before)?.id).toBe(project.projectId);
    await expect.poll(() => counter.statements()).toBe(2);
    counter.release();
    expect(await after).toBeUndefined();
  });
});
