import { describe, expect, it } from 'vitest';
import { findTooDeep } from '../../domain/shared/json-depth.pure.js';

const nested = (n: number): unknown => {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i += 1) v = i % 2 ? [v] : { k: v };
  return v;
};

describe('findTooDeep', () => {
  it('allows exactly the depth and names the first container past it', () => {
    expect(findTooDeep(nested(3), 3)).toBeUndefined();
    expect(findTooDeep({ a: { b: [1, { c: 2 }] } }, 3)).toBe('a.b.1');
    expect(findTooDeep({ a: 'x', b: [[[]]] }, 3, 'body')).toBe('body.b.0.0');
    expect(findTooDeep('text', 0)).toBeUndefined();
  });

  it('checks a value nested 500,000 deep without overflowing the stack', () => {
    expect(findTooDeep(nested(500_000), 64)?.split('.')).toHaveLength(64);
  });
});
