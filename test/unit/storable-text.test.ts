import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cleanStorableText,
  findUnstorableText,
  findUnstorableTexts,
  isStorableText,
  storableText,
} from '../../domain/shared/storable-text.pure.js';

const BAD = ['\u0000', '\ud800', '\udfff', 'a\u0000b', 'x\ud83d', '\ude00y'];
// Any JSON value, its strings drawn from all code units (lone surrogates and NUL included).
const anyJson = fc.jsonValue({ stringUnit: 'binary' });
const storableJson = fc.jsonValue({ stringUnit: 'grapheme' });

describe('isStorableText / storableText', () => {
  it('refuses NUL and lone surrogates, accepts paired surrogates and the rest', () => {
    for (const bad of BAD) expect(isStorableText(bad)).toBe(false);
    for (const good of ['', 'plain', 'émoji 😀', '\ud83d\ude00', '\u0001\uffff'])
      expect(isStorableText(good)).toBe(true);
  });

  it('makes any string storable, leaving storable strings alone', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const clean = storableText(text);
        expect(isStorableText(clean)).toBe(true);
        if (isStorableText(text)) expect(clean).toBe(text);
      }),
    );
    expect(storableText('a\u0000b\ud800c')).toBe('ab\ufffdc');
  });
});

describe('findUnstorableText', () => {
  it('finds nothing in storable JSON', () => {
    fc.assert(fc.property(storableJson, (value) => findUnstorableText(value) === undefined));
  });

  it('finds something exactly when some string or key is not storable', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        expect(findUnstorableText(value) !== undefined).toBe(hasBadText(value));
      }),
    );
  });

  it('names the path of a value and of a key, as zod field errors are dotted', () => {
    const body = { data: { tags: ['a', 'b', 'c\u0000'] }, name: 'ok' };
    expect(findUnstorableText(body)).toEqual({ path: 'data.tags.2', inKey: false });
    expect(findUnstorableText({ data: { 'k\ud800': 1 } })).toEqual({
      path: 'data.k\\ud800',
      inKey: true,
    });
    expect(findUnstorableText({ search: '\u0000' }, 'query')).toEqual({
      path: 'query.search',
      inKey: false,
    });
    expect(findUnstorableText('\u0000')).toEqual({ path: '', inKey: false });
    // The path itself is always storable, so it can be answered and logged.
    fc.assert(
      fc.property(anyJson, (value) => {
        const found = findUnstorableText(value);
        return found === undefined || isStorableText(found.path);
      }),
    );
  });

  it('lists every bad text in document order, up to a limit, a bad key once', () => {
    const body = { a: '\u0000', 'b\u0000': { deeper: '\u0000' }, c: ['ok', '\ud800'] };
    expect(findUnstorableTexts(body)).toEqual([
      { path: 'a', inKey: false },
      { path: 'b\\u0000', inKey: true },
      { path: 'c.1', inKey: false },
    ]);
    expect(findUnstorableTexts(body, '', 2)).toHaveLength(2);
  });

  it('walks a deeply nested value without overflowing the stack', () => {
    let deep: unknown = '\u0000';
    for (let i = 0; i < 100_000; i += 1) deep = [deep];
    expect(findUnstorableText(deep)?.path).toBe(Array(100_000).fill('0').join('.'));
  });
});

describe('cleanStorableText', () => {
  it('makes every string and key storable and keeps storable values equal', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        const clean = cleanStorableText(value);
        expect(findUnstorableText(clean)).toBeUndefined();
        if (!hasBadText(value)) expect(clean).toEqual(value);
      }),
    );
  });

  it('keeps a __proto__ key as a key, and dates and buffers as they are', () => {
    const parsed = JSON.parse('{"__proto__": {"x": "\\u0000"}}') as Record<string, unknown>;
    const clean = cleanStorableText(parsed);
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.keys(clean)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(clean, '__proto__')?.value).toEqual({ x: '' });
    const date = new Date();
    const buffer = Buffer.from('a\u0000');
    expect(cleanStorableText({ date, buffer })).toEqual({ date, buffer });
  });
});

/** A slow, obviously right twin of the walk. */
function hasBadText(value: unknown): boolean {
  if (typeof value === 'string') return !isStorableText(value);
  if (Array.isArray(value)) return value.some(hasBadText);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => !isStorableText(k) || hasBadText(v));
  return false;
}
