import { WINDOW_UNITS, type WindowUnit } from '../../../domain/segments/filter/ast.pure';
import { assertNever } from '../../../domain/shared/assert-never.pure';
import type { Condition, Scalar } from './filter-model';
import type { OperandKind } from './operand-kind';
import type { FieldValueType } from './use-filter-fields';

const control =
  'min-h-9 rounded-md border border-line bg-panel px-2 py-1.5 text-sm text-fg aria-invalid:border-danger';

/** A number input's text as the value sent: a number, or the text itself while not one. */
const numberOrText = (text: string): Scalar =>
  text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;

const listText = (value: Condition['value']): string =>
  Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value);

/** The value part of a condition, shaped by its operator's operand and the field's type. */
export function ValueInput({
  kind,
  type,
  condition,
  invalid,
  onChange,
}: {
  kind: OperandKind;
  type: FieldValueType;
  condition: Condition;
  invalid: boolean;
  onChange: (patch: Pick<Condition, 'value' | 'unit'>) => void;
}) {
  const aria = { 'aria-invalid': invalid || undefined };
  const value = condition.value;
  switch (kind) {
    case 'none':
      return null;
    case 'value':
      if (type === 'boolean') {
        return (
          <select
            aria-label="Value"
            className={control}
            value={String(value ?? true)}
            onChange={(e) => onChange({ value: e.target.value === 'true' })}
            {...aria}
          >
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        );
      }
      return (
        <input
          aria-label="Value"
          className={`${control} w-40`}
          type={type === 'number' ? 'number' : 'text'}
          value={value === undefined || Array.isArray(value) ? '' : String(value)}
          onChange={(e) =>
            onChange({ value: type === 'number' ? numberOrText(e.target.value) : e.target.value })
          }
          {...aria}
        />
      );
    case 'list':
      return (
        <input
          aria-label="Values"
          placeholder="a, b, c"
          className={`${control} w-56`}
          value={listText(value)}
          onChange={(e) =>
            onChange({
              value: e.target.value
                .split(',')
                .map((part) => part.trim())
                .filter((part) => part !== '')
                .map((part) => (type === 'number' ? numberOrText(part) : part)),
            })
          }
          {...aria}
        />
      );
    case 'text':
      return (
        <input
          aria-label="Value"
          className={`${control} w-40`}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange({ value: e.target.value })}
          {...aria}
        />
      );
    case 'ordering':
      return (
        <input
          aria-label="Value"
          className={`${control} w-40`}
          type={type === 'date' ? 'date' : 'number'}
          value={value === undefined || Array.isArray(value) ? '' : String(value)}
          onChange={(e) =>
            onChange({ value: type === 'date' ? e.target.value : numberOrText(e.target.value) })
          }
          {...aria}
        />
      );
    case 'window':
      return (
        <span className="flex gap-2">
          <input
            aria-label="Amount"
            className={`${control} w-20`}
            type="number"
            min={1}
            value={typeof value === 'number' || typeof value === 'string' ? String(value) : ''}
            onChange={(e) =>
              onChange({ value: numberOrText(e.target.value), unit: condition.unit })
            }
            {...aria}
          />
          <select
            aria-label="Unit"
            className={control}
            value={condition.unit ?? 'days'}
            onChange={(e) => onChange({ value, unit: e.target.value as WindowUnit })}
          >
            {WINDOW_UNITS.map((unit) => (
              <option key={unit} value={unit}>
                {unit}
              </option>
            ))}
          </select>
        </span>
      );
    case 'count':
      return (
        <input
          aria-label="Times"
          className={`${control} w-20`}
          type="number"
          min={1}
          step={1}
          value={typeof value === 'number' || typeof value === 'string' ? String(value) : ''}
          onChange={(e) => onChange({ value: numberOrText(e.target.value) })}
          {...aria}
        />
      );
  }
  return assertNever(kind, 'operand kind');
}

/** The value a fresh condition starts with for an operand. */
export function initialOperand(kind: OperandKind): Pick<Condition, 'value' | 'unit'> {
  switch (kind) {
    case 'none':
      return {};
    case 'value':
    case 'text':
    case 'ordering':
      return { value: '' };
    case 'list':
      return { value: [] };
    case 'window':
      return { value: 7, unit: 'days' };
    case 'count':
      return { value: 1 };
  }
  return assertNever(kind, 'operand kind');
}
