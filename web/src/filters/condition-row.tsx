import {
  OPERATORS_BY_FIELD,
  parseField,
  type ConditionOperator,
  type FilterScope,
} from '../../../domain/segments/filter/ast.pure';
import type { Condition } from './filter-model';
import { OPERATOR_LABELS, operandKindOf } from './operand-kind';
import type { FieldOption, FieldValueType } from './use-filter-fields';
import { initialOperand, ValueInput } from './value-input';

const control =
  'min-h-9 rounded-md border border-line bg-panel px-2 py-1.5 text-sm text-fg aria-invalid:border-danger';
const OTHER_DATA_KEY = '__other_data_key__';
const GROUPS = ['Contact', 'Contact data', 'Events', 'Segments'] as const;

/** The operators a field takes (all of them for a field the language does not know yet). */
function operatorsFor(field: string, scope: FilterScope): readonly ConditionOperator[] {
  const ref = parseField(field, scope);
  return ref ? OPERATORS_BY_FIELD[ref.kind] : OPERATORS_BY_FIELD.data;
}

/** The condition after its field changed: the operator kept when the new field takes it. */
function withField(condition: Condition, field: string, scope: FilterScope): Condition {
  const operators = operatorsFor(field, scope);
  const operator = operators.includes(condition.operator) ? condition.operator : operators[0]!;
  return operator === condition.operator
    ? { ...condition, field }
    : { field, operator, ...initialOperand(operandKindOf(operator)) };
}

/** One condition: field, operator and the value its operand needs, with the API's errors. */
export function ConditionRow({
  label,
  condition,
  options,
  errors,
  onChange,
  onRemove,
  scope = 'segment',
}: {
  label: string;
  /** Where the condition is read: a segment's filter, or a workflow's CONDITION step. */
  scope?: FilterScope;
  condition: Condition;
  options: FieldOption[];
  errors: string[] | undefined;
  onChange: (next: Condition) => void;
  onRemove: () => void;
}) {
  const known = options.find((o) => o.value === condition.field);
  const isOtherDataKey = !known && condition.field.startsWith('data.');
  const type: FieldValueType = known?.type ?? 'string';
  const operators = operatorsFor(condition.field, scope);
  const kind = operandKindOf(condition.operator);
  const invalid = (errors?.length ?? 0) > 0;
  const errorId = `${label.replace(/\W+/g, '-')}-errors`;

  return (
    <div
      role="group"
      aria-label={label}
      aria-describedby={invalid ? errorId : undefined}
      className={`rounded-md border bg-panel p-2 ${invalid ? 'border-danger' : 'border-line'}`}
    >
      <div className="flex flex-wrap items-center gap-2">
        <select
          aria-label="Field"
          className={`${control} max-w-48`}
          value={isOtherDataKey ? OTHER_DATA_KEY : condition.field}
          onChange={(e) =>
            onChange(
              withField(
                condition,
                e.target.value === OTHER_DATA_KEY ? 'data.' : e.target.value,
                scope,
              ),
            )
          }
        >
          {!known && !isOtherDataKey ? (
            <option value={condition.field}>{condition.field}</option>
          ) : null}
          {GROUPS.map((group) => {
            const inGroup = options.filter((o) => o.group === group);
            return inGroup.length === 0 && group !== 'Contact data' ? null : (
              <optgroup key={group} label={group}>
                {inGroup.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
                {group === 'Contact data' ? (
                  <option value={OTHER_DATA_KEY}>Another data key…</option>
                ) : null}
              </optgroup>
            );
          })}
        </select>
        {isOtherDataKey ? (
          <input
            aria-label="Data key"
            placeholder="plan or address.city"
            className={`${control} w-40`}
            value={condition.field.slice('data.'.length)}
            onChange={(e) => onChange({ ...condition, field: `data.${e.target.value}` })}
          />
        ) : null}
        <select
          aria-label="Operator"
          className={control}
          value={condition.operator}
          onChange={(e) => {
            const operator = e.target.value as ConditionOperator;
            const next = operandKindOf(operator);
            onChange({
              field: condition.field,
              operator,
              ...(next === kind
                ? { value: condition.value, unit: condition.unit }
                : initialOperand(next)),
            });
          }}
        >
          {operators.includes(condition.operator) ? null : (
            <option value={condition.operator}>{condition.operator}</option>
          )}
          {operators.map((op) => (
            <option key={op} value={op}>
              {OPERATOR_LABELS[op]}
            </option>
          ))}
        </select>
        <ValueInput
          kind={kind}
          type={type}
          condition={condition}
          invalid={invalid}
          onChange={(patch) =>
            onChange({ field: condition.field, operator: condition.operator, ...patch })
          }
        />
        <button
          type="button"
          onClick={onRemove}
          aria-label={`Remove ${label.toLowerCase()}`}
          title="Remove condition"
          className="ml-auto rounded-md px-2 py-1 text-base leading-none text-muted hover:bg-surface hover:text-fg"
        >
          ✕
        </button>
      </div>
      {invalid ? (
        <ul id={errorId} className="mt-1.5 text-xs text-danger">
          {errors!.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
