import { FILTER_LOGICS, MAX_FILTER_DEPTH } from '../../../domain/segments/filter/ast.pure';
import { ConditionRow } from './condition-row';
import {
  emptyCondition,
  isFilter,
  pathKey,
  type Condition,
  type Filter,
  type NodeErrors,
  type NodePath,
} from './filter-model';
import type { FieldOption } from './use-filter-fields';

const LOGIC_LABELS = { AND: 'all of', OR: 'any of' } as const;

/** A group of conditions joined by AND or OR, with nested groups down to the language's depth. */
export function FilterGroup({
  group,
  path,
  options,
  errors,
  onChange,
  onRemove,
}: {
  group: Filter;
  path: NodePath;
  options: FieldOption[];
  errors: NodeErrors;
  onChange: (next: Filter) => void;
  onRemove?: () => void;
}) {
  const depth = path.length + 1;
  const name = path.length === 0 ? 'Filter' : `Group ${path.map((i) => i + 1).join('.')}`;
  const logic = (
    group.operator.toUpperCase() === 'OR' ? 'OR' : 'AND'
  ) as (typeof FILTER_LOGICS)[number];
  const own = errors.get(pathKey(path));
  const setChild = (index: number, child: Condition | Filter | undefined) =>
    onChange({
      ...group,
      conditions: group.conditions.flatMap((node, i) =>
        i !== index ? [node] : child === undefined ? [] : [child],
      ),
    });

  return (
    <div
      role="group"
      aria-label={name}
      className={`flex flex-col gap-2 ${path.length > 0 ? 'rounded-md border-l-4 border-accent/40 bg-surface/60 py-2 pr-2 pl-3' : ''}`}
    >
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <span className="text-muted">Match</span>
        <select
          aria-label={`How ${name.toLowerCase()} joins its conditions`}
          className="min-h-9 rounded-md border border-line bg-panel px-2 py-1.5 text-sm font-medium"
          value={logic}
          onChange={(e) => onChange({ ...group, operator: e.target.value as typeof logic })}
        >
          {FILTER_LOGICS.map((l) => (
            <option key={l} value={l}>
              {LOGIC_LABELS[l]}
            </option>
          ))}
        </select>
        <span className="text-muted">these conditions</span>
        {onRemove ? (
          <button
            type="button"
            onClick={onRemove}
            className="ml-auto rounded-md px-2 py-1 text-sm text-muted hover:bg-panel hover:text-fg"
          >
            Remove group
          </button>
        ) : null}
      </div>
      {own ? (
        <ul className="text-xs text-danger">
          {own.map((m) => (
            <li key={m}>{m}</li>
          ))}
        </ul>
      ) : null}
      {group.conditions.length === 0 ? (
        <p className="text-sm text-muted">
          {logic === 'AND'
            ? 'No conditions: matches every contact.'
            : 'No conditions: matches no one.'}
        </p>
      ) : null}
      {group.conditions.map((node, i) => {
        const childPath = [...path, i];
        return isFilter(node) ? (
          <FilterGroup
            key={i}
            group={node}
            path={childPath}
            options={options}
            errors={errors}
            onChange={(next) => setChild(i, next)}
            onRemove={() => setChild(i, undefined)}
          />
        ) : (
          <ConditionRow
            key={i}
            label={`Condition ${childPath.map((n) => n + 1).join('.')}`}
            condition={node}
            options={options}
            errors={errors.get(pathKey(childPath))}
            onChange={(next) => setChild(i, next)}
            onRemove={() => setChild(i, undefined)}
          />
        );
      })}
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() =>
            onChange({ ...group, conditions: [...group.conditions, emptyCondition()] })
          }
          className="rounded-md border border-dashed border-line px-3 py-1.5 text-sm hover:bg-panel"
        >
          + Condition{path.length > 0 ? ` in ${name.toLowerCase()}` : ''}
        </button>
        {depth < MAX_FILTER_DEPTH ? (
          <button
            type="button"
            onClick={() =>
              onChange({
                ...group,
                conditions: [
                  ...group.conditions,
                  { operator: logic === 'AND' ? 'OR' : 'AND', conditions: [emptyCondition()] },
                ],
              })
            }
            className="rounded-md border border-dashed border-line px-3 py-1.5 text-sm hover:bg-panel"
          >
            + Group
          </button>
        ) : null}
      </div>
    </div>
  );
}
