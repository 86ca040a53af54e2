import { isFilter, parseField, type Condition, type Filter } from './ast.pure.js';
import { reaches } from '../../shared/reachable.pure.js';

/** What a filter reads: the data keys (their top level), event names and segments. */
export interface FilterReferences {
  fields: string[];
  events: string[];
  segments: string[];
}

function conditionsOf(filter: Filter): Condition[] {
  return filter.conditions.flatMap((node) => (isFilter(node) ? conditionsOf(node) : [node]));
}

export function filterReferences(filter: Filter | null | undefined): FilterReferences {
  const fields = new Set<string>();
  const events = new Set<string>();
  const segments = new Set<string>();
  for (const condition of filter ? conditionsOf(filter) : []) {
    const field = parseField(condition.field);
    if (field?.kind === 'data') fields.add(field.path[0] as string);
    else if (field?.kind === 'event') events.add(field.name);
    else if (field?.kind === 'segment') segments.add(field.id);
  }
  return { fields: [...fields], events: [...events], segments: [...segments] };
}

/**
 * The first segment through which `start`'s references lead back to `start` (A memberOf B
 * memberOf A), given what each segment refers to; undefined when there is no cycle.
 */
export function cycleThrough(
  start: string,
  references: readonly string[],
  referencesOf: (segmentId: string) => readonly string[],
): string | undefined {
  return references.find((first) => reaches({ start: first, goal: start, next: referencesOf }));
}
