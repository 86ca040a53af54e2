// PostgreSQL's text cannot hold NUL, and UTF-8 cannot encode a lone UTF-16 surrogate. Text from
// callers is refused with the path of each such string; text from elsewhere that we keep
// (inbound mail, provider webhooks) is cleaned instead.

const NUL = '\u0000';

/** What a route does with such text: callers' is refused, a provider's callback is cleaned. */
export const UNSTORABLE_TEXT_MODES = ['refuse', 'clean'] as const;
export type UnstorableTextMode = (typeof UNSTORABLE_TEXT_MODES)[number];

/** True when PostgreSQL can store `text` as it is. */
export function isStorableText(text: string): boolean {
  return !text.includes(NUL) && text.isWellFormed();
}

/** `text` with NULs dropped and lone surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return (text.includes(NUL) ? text.replaceAll(NUL, '') : text).toWellFormed();
}

export interface UnstorableText {
  /** Dotted path of the string or key, e.g. `data.tags.2` or `headers` (a key in it). */
  path: string;
  /** Whether the offending text is an object key rather than a value. */
  inKey: boolean;
}

type Pending = { value: unknown; path: string } | { badKey: string };

/**
 * The strings and object keys under `value` that PostgreSQL cannot store, in document order, at
 * most `limit` of them. A bad key is reported once, without looking at its value. Walks
 * iteratively so a deeply nested body cannot overflow the stack.
 */
export function findUnstorableTexts(value: unknown, root = '', limit = 20): UnstorableText[] {
  const found: UnstorableText[] = [];
  const stack: Pending[] = [{ value, path: root }];
  while (stack.length > 0 && found.length < limit) {
    const item = stack.pop() as Pending;
    if ('badKey' in item) {
      found.push({ path: item.badKey, inKey: true });
      continue;
    }
    const v = item.value;
    if (typeof v === 'string') {
      if (!isStorableText(v)) found.push({ path: item.path, inKey: false });
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i -= 1)
        stack.push({ value: v[i], path: join(item.path, String(i)) });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i -= 1) {
        const [key, child] = entries[i] as [string, unknown];
        stack.push(
          isStorableText(key)
            ? { value: child, path: join(item.path, key) }
            : { badKey: join(item.path, printable(key)) },
        );
      }
    }
  }
  return found;
}

/** The first string or object key under `value` that PostgreSQL cannot store, or undefined. */
export function findUnstorableText(value: unknown, root = ''): UnstorableText | undefined {
  return findUnstorableTexts(value, root, 1)[0];
}

/** `value` with every string and key made storable (for data from elsewhere that we keep). */
export function cleanStorableText<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => cleanStorableText(v)) as T;
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    if (value instanceof Date) return value;
    // fromEntries defines own properties, so a `__proto__` key stays a key.
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [
        storableText(k),
        cleanStorableText(v),
      ]),
    ) as T;
  }
  return value;
}

const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);
/** A bad key named in a path: its NULs and surrogates escaped (`\u0000`), so the path is storable. */
const printable = (key: string): string => JSON.stringify(key).slice(1, -1);
