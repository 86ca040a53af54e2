// A body nested thousands deep parses (JSON.parse does not recurse) but overflows the stack of
// whatever walks it next (JSON.stringify before PostgreSQL, say): it is refused where parsed.

/** How deep a request body may nest objects and arrays; real payloads stay far below. */
export const MAX_BODY_DEPTH = 64;

/**
 * The dotted path of the first object or array nested deeper than `maxDepth` under `value` (the
 * value itself is depth 1), or undefined. Iterative, so any depth is safe to check.
 */
export function findTooDeep(value: unknown, maxDepth: number, root = ''): string | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [
    { value, path: root, depth: 1 },
  ];
  while (stack.length > 0) {
    const item = stack.pop() as { value: unknown; path: string; depth: number };
    const v = item.value;
    if (v === null || typeof v !== 'object') continue;
    if (item.depth > maxDepth) return item.path;
    const children = Array.isArray(v)
      ? v.map((child, i) => [String(i), child] as const)
      : Object.entries(v as Record<string, unknown>);
    for (const [key, child] of children)
      stack.push({
        value: child,
        path: item.path ? `${item.path}.${key}` : key,
        depth: item.depth + 1,
      });
  }
  return undefined;
}
