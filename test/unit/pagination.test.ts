import { describe, expect, it } from 'vitest';
import { cursorQuery, pageQuery } from '../../api/http/pagination.js';
import {
  cursorPage,
  decodeCursor,
  encodeCursor,
  pageResult,
} from '../../domain/shared/pagination.js';
import { DomainError } from '../../domain/shared/errors.js';

describe('cursor pagination helpers', () => {
  it('round-trips a keyset position through an opaque cursor', () => {
    const position = {
      sort: '2026-01-01T00:00:00.000Z',
      id: '0190a000-0000-7000-8000-000000000001',
    };
    const cursor = encodeCursor(position);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(cursor)).toEqual(position);
  });

  it('refuses a tampered cursor with a validation error', () => {
    for (const bad of [
      'not-base64!',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('[1]').toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad)).toThrow(DomainError);
    }
  });

  it('applies the spec limits: default 20, 1..100', () => {
    expect(cursorQuery.parse({}).limit).toBe(20);
    expect(cursorQuery.parse({ limit: '1' }).limit).toBe(1);
    expect(cursorQuery.parse({ limit: '100' }).limit).toBe(100);
    expect(cursorQuery.safeParse({ limit: '0' }).success).toBe(false);
    expect(cursorQuery.safeParse({ limit: '101' }).success).toBe(false);
    expect(pageQuery.parse({ pageSize: '100' }).pageSize).toBe(100);
    expect(pageQuery.safeParse({ pageSize: '101' }).success).toBe(false);
  });

  it('builds pages from limit + 1 rows, with total only when given', () => {
    const rows = Array.from({ length: 21 }, (_, i) => ({
      id: `0190a000-0000-7000-8000-0000000000${String(i).padStart(2, '0')}`,
      at: i,
    }));
    const first = cursorPage({
      rows,
      limit: 20,
      total: 45,
      positionOf: (r) => ({ sort: r.at, id: r.id }),
    });
    expect(first.data).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect(first.total).toBe(45);
    expect(decodeCursor(first.cursor as string)).toEqual({
      sort: 19,
      id: '0190a000-0000-7000-8000-000000000019',
    });
    const last = cursorPage({
      rows: rows.slice(0, 5),
      limit: 20,
      total: undefined,
      positionOf: (r) => ({ sort: r.at, id: r.id }),
    });
    expect(last).toMatchObject({ hasMore: false, cursor: null, total: 0 });
    expect(pageResult({ data: [], total: 45, page: 3, pageSize: 20 }).totalPages).toBe(3);
  });
});
