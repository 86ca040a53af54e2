import {
  isFilter,
  type Condition,
  type ConditionOperator,
  type Filter,
  type Scalar,
} from '../../../domain/segments/filter/ast.pure';

export type { Condition, ConditionOperator, Filter, Scalar };
export { isFilter };

/** Where a node sits: the indexes of `conditions` from the root group down. */
export type NodePath = readonly number[];

export const emptyCondition = (): Condition => ({
  field: 'email',
  operator: 'contains',
  value: '',
});

export const emptyFilter = (): Filter => ({ operator: 'AND', conditions: [emptyCondition()] });

/** The API's error path (`filters.conditions.2.conditions.0.value`) as a node path and its key. */
export function nodeOfErrorPath(
  field: string,
  root: string,
): { path: number[]; key: string } | undefined {
  const parts = field.replace(/^body\./, '').split('.');
  if (parts[0] !== root) return undefined;
  const path: number[] = [];
  let i = 1;
  while (parts[i] === 'conditions' && parts[i + 1] !== undefined && /^\d+$/.test(parts[i + 1]!)) {
    path.push(Number(parts[i + 1]));
    i += 2;
  }
  return { path, key: parts.slice(i).join('.') };
}

/** Field errors keyed by node path (`0.2`; the root group is ``), as the builder shows them. */
export type NodeErrors = ReadonlyMap<string, string[]>;

export const pathKey = (path: NodePath): string => path.join('.');

/** No errors at any node (one shared empty map, so it is stable from render to render). */
export const NO_ERRORS: NodeErrors = new Map();

export function errorsByNode(
  errors: readonly { field?: string; message?: string }[],
  root: string,
): NodeErrors {
  const map = new Map<string, string[]>();
  for (const error of errors) {
    const node = error.field ? nodeOfErrorPath(error.field, root) : undefined;
    if (!node) continue;
    const key = pathKey(node.path);
    const label = node.key ? `${node.key.charAt(0).toUpperCase()}${node.key.slice(1)}: ` : '';
    const text = `${label}${error.message ?? 'Invalid'}`;
    map.set(key, [...(map.get(key) ?? []), text]);
  }
  return map;
}

/** Reads text the user wrote in the JSON view as a filter shape the builder can draw. */
export function parseFilterJson(text: string): { filter: Filter } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { problem: `Not valid JSON: ${(error as Error).message}` };
  }
  const shapeProblem = checkShape(value, 'The filter');
  return shapeProblem ? { problem: shapeProblem } : { filter: value as Filter };
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Only the shape the builder draws is checked here; the API checks the rest (and the preview
// shows its field errors at their conditions).
function checkShape(value: unknown, where: string): string | undefined {
  if (!isRecord(value)) return `${where} must be an object`;
  if (!Array.isArray(value.conditions)) {
    if (typeof value.field === 'string' && typeof value.operator === 'string') return undefined;
    return `${where} needs "conditions" (a group) or "field" and "operator" (a condition)`;
  }
  if (typeof value.operator !== 'string') return `${where} needs an "operator" (AND or OR)`;
  for (const [i, child] of value.conditions.entries()) {
    const problem = checkShape(child, `conditions[${i}] of ${where.toLowerCase()}`);
    if (problem) return problem;
  }
  return undefined;
}
