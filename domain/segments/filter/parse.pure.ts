import {
  CONDITION_OPERATORS,
  FILTER_LOGICS,
  MAX_FILTER_DEPTH,
  OPERATORS_BY_FIELD,
  parseField,
  type Condition,
  type FilterScope,
  type ConditionOperator,
  type FieldRef,
  type Filter,
  type FilterLogic,
} from './ast.pure.js';
import type { z } from 'zod';
import { canonicalEventName } from '../../events/event-names.pure.js';
import { FILTER_OPERATORS } from './filter-operators.pure.js';
import { Problems, type FilterProblem, type ProblemPath as Path } from './problems.pure.js';

export type { FilterProblem } from './problems.pure.js';
export { MAX_IN_VALUES, MAX_TEXT_VALUE } from './operands.pure.js';

export type ParsedFilter = { filter: Filter } | { problems: FilterProblem[] };

export const MAX_CONDITIONS_PER_GROUP = 50;
export const MAX_FIELD_LENGTH = 300;

// Plunk's names for our operators (decisions.md).
const OPERATOR_ALIASES: Record<string, ConditionOperator> = {
  memberOfSegment: 'memberOf',
  notMemberOfSegment: 'notMemberOf',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const FIELD_KIND_NAMES: Record<FieldRef['kind'], string> = {
  email: 'email',
  subscribed: 'subscribed',
  date: 'a date field',
  data: 'a data field',
  event: 'an event',
  segment: 'a segment',
  eventData: "a field of the trigger event's data",
  context: 'a context field',
};

const FIELD_HINTS: Record<FilterScope, string> = {
  segment: 'Use email, subscribed, createdAt, updatedAt, data.<key>, event.<name> or segment.<id>',
  workflow:
    "Use email, subscribed, createdAt, updatedAt, data.<key>, event.<key> (the trigger event's data) or context.<key>",
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const tooDeep = (path: Path, problems: Problems): undefined =>
  problems.add(path, 'too_deep', `Groups nest ${MAX_FILTER_DEPTH} deep at most`);

function parseLogic(value: unknown, path: Path, problems: Problems): FilterLogic | undefined {
  const upper = typeof value === 'string' ? value.toUpperCase() : value;
  if ((FILTER_LOGICS as readonly unknown[]).includes(upper)) return upper as FilterLogic;
  return problems.add(path, 'invalid_operator', 'Use AND or OR');
}

function parseCondition(
  input: Record<string, unknown>,
  path: Path,
  problems: Problems,
  scope: FilterScope = 'segment',
): Condition | undefined {
  const rawField = input.field;
  if (typeof rawField !== 'string' || rawField.length === 0 || rawField.length > MAX_FIELD_LENGTH) {
    return problems.add([...path, 'field'], 'invalid_field', 'Give the field to test');
  }
  const field = parseField(rawField, scope);
  if (!field) return problems.add([...path, 'field'], 'invalid_field', FIELD_HINTS[scope]);
  if (field.kind === 'segment' && !UUID.test(field.id)) {
    return problems.add(
      [...path, 'field'],
      'invalid_field',
      'Name a segment by its id: segment.<id>',
    );
  }
  const rawOperator = typeof input.operator === 'string' ? input.operator : '';
  const operator = OPERATOR_ALIASES[rawOperator] ?? rawOperator;
  if (!(CONDITION_OPERATORS as readonly string[]).includes(operator)) {
    return problems.add(
      [...path, 'operator'],
      'invalid_operator',
      `Unknown operator "${rawOperator}"; use one of ${CONDITION_OPERATORS.join(', ')}`,
    );
  }
  const allowed = OPERATORS_BY_FIELD[field.kind];
  if (!allowed.includes(operator as ConditionOperator)) {
    return problems.add(
      [...path, 'operator'],
      'invalid_operator',
      `${operator} does not apply to ${FIELD_KIND_NAMES[field.kind]}; use one of ${allowed.join(', ')}`,
    );
  }
  const operand = FILTER_OPERATORS[operator as ConditionOperator].operand({
    field,
    condition: input,
    path,
    problems,
  });
  if (!operand) return undefined;
  const canonicalField =
    field.kind === 'event' ? `event.${canonicalEventName(field.name)}` : rawField;
  return { field: canonicalField, operator: operator as ConditionOperator, ...operand };
}

function parseNode(
  input: unknown,
  path: Path,
  depth: number,
  problems: Problems,
): Condition | Filter | undefined {
  if (!isRecord(input)) return problems.add(path, 'invalid_type', 'Give a condition or a group');
  if ('conditions' in input) return parseGroup(input, path, depth + 1, problems);
  return parseCondition(input, path, problems);
}

/** Reads a group (ours or Plunk's) `depth` levels down: the filter itself is 1. */
type GroupReader = (
  input: Record<string, unknown>,
  path: Path,
  depth: number,
  problems: Problems,
) => Filter | undefined;

/** The reader, after a check that the group does not nest deeper than MAX_FILTER_DEPTH. */
const depthLimited =
  (read: GroupReader): GroupReader =>
  (input, path, depth, problems) =>
    depth > MAX_FILTER_DEPTH ? tooDeep(path, problems) : read(input, path, depth, problems);

const parseGroup: GroupReader = depthLimited((input, path, depth, problems) => {
  const operator = parseLogic(input.operator, [...path, 'operator'], problems);
  const conditions = input.conditions;
  if (!Array.isArray(conditions) || conditions.length > MAX_CONDITIONS_PER_GROUP) {
    return problems.add(
      [...path, 'conditions'],
      'invalid_value',
      `Give a list of up to ${MAX_CONDITIONS_PER_GROUP} conditions or groups`,
    );
  }
  const nodes = conditions.map((node, i) =>
    parseNode(node, [...path, 'conditions', i], depth, problems),
  );
  if (!operator || nodes.some((n) => n === undefined)) return undefined;
  return { operator, conditions: nodes as (Condition | Filter)[] };
});

// Plunk's shape: {logic, groups: [{filters: [...], conditions?: <same shape>}]}. Filters in a
// group are ANDed, with the group's nested condition; groups are joined by `logic`.
const parsePlunkCondition: GroupReader = depthLimited((input, path, depth, problems) => {
  const logic = parseLogic(input.logic, [...path, 'logic'], problems);
  const groups = input.groups;
  if (!Array.isArray(groups) || groups.length === 0 || groups.length > MAX_CONDITIONS_PER_GROUP) {
    return problems.add(
      [...path, 'groups'],
      'invalid_value',
      `Give a list of 1 to ${MAX_CONDITIONS_PER_GROUP} groups`,
    );
  }
  const converted = groups.map((group, i): Condition | Filter | undefined => {
    const groupPath = [...path, 'groups', i];
    if (!isRecord(group)) return problems.add(groupPath, 'invalid_type', 'Give a group');
    const filters = group.filters ?? [];
    if (!Array.isArray(filters) || filters.length > MAX_CONDITIONS_PER_GROUP) {
      return problems.add(
        [...groupPath, 'filters'],
        'invalid_value',
        `Give a list of up to ${MAX_CONDITIONS_PER_GROUP} filters`,
      );
    }
    const items: (Condition | Filter | undefined)[] = filters.map((filter, j) =>
      isRecord(filter)
        ? parseCondition(filter, [...groupPath, 'filters', j], problems)
        : problems.add([...groupPath, 'filters', j], 'invalid_type', 'Give a filter'),
    );
    if (group.conditions !== undefined) {
      items.push(
        isRecord(group.conditions)
          ? parsePlunkCondition(group.conditions, [...groupPath, 'conditions'], depth + 1, problems)
          : problems.add([...groupPath, 'conditions'], 'invalid_type', 'Give a nested condition'),
      );
    }
    if (items.some((item) => item === undefined)) return undefined;
    const parts = items as (Condition | Filter)[];
    return parts.length === 1 ? parts[0] : { operator: 'AND', conditions: parts };
  });
  if (!logic || converted.some((c) => c === undefined)) return undefined;
  return { operator: logic, conditions: converted as (Condition | Filter)[] };
});

/** How deep a filter's groups nest (the filter itself is 1). */
export function filterDepth(filter: Filter): number {
  return 1 + Math.max(0, ...filter.conditions.map((c) => ('conditions' in c ? filterDepth(c) : 0)));
}

/**
 * Reads a filter in our shape (`{operator, conditions}`) or Plunk's (`{logic, groups}`), checks
 * every field, operator and value, and answers it in our canonical shape, or every problem found
 * with its path.
 */
export function parseFilter(input: unknown): ParsedFilter {
  const problems = new Problems();
  let filter: Filter | undefined;
  if (!isRecord(input)) {
    problems.add([], 'invalid_type', 'Give a filter: {operator: AND|OR, conditions: [...]}');
  } else if ('groups' in input || 'logic' in input) {
    filter = parsePlunkCondition(input, [], 1, problems);
    // Converted groups may nest deeper than Plunk's own levels; the limit is on what runs.
    if (filter && filterDepth(filter) > MAX_FILTER_DEPTH) tooDeep([], problems);
  } else {
    filter = parseGroup(input, [], 1, problems);
  }
  return filter && problems.list.length === 0 ? { filter } : { problems: problems.list };
}

export type ParsedCondition = { condition: Condition } | { problems: FilterProblem[] };

/**
 * Reads one condition of a workflow's CONDITION step, whose fields are the contact's, `event.*`
 * (the trigger event's data) and `context.*` (the execution's context).
 */
export function parseWorkflowCondition(input: unknown): ParsedCondition {
  const problems = new Problems();
  const condition = isRecord(input)
    ? parseCondition(input, [], problems, 'workflow')
    : problems.add([], 'invalid_type', 'Give a condition: {field, operator, value?}');
  return condition && problems.list.length === 0 ? { condition } : { problems: problems.list };
}

/** Reports filter problems as issues of the zod check that read the filter (codes kept). */
export function reportFilterProblems(ctx: z.RefinementCtx, problems: FilterProblem[]): void {
  for (const problem of problems) {
    ctx.addIssue({
      code: 'custom',
      message: problem.message,
      path: problem.path,
      params: { code: problem.code },
    });
  }
}
