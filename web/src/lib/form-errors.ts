import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../api/client';

/**
 * Puts the API's field errors onto the form's fields (a field path such as `data.plan` lands on
 * its first segment when the form has no such field) and returns the message for the rest.
 */
export function applyApiError<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fields: readonly Path<T>[],
): string | undefined {
  if (!(error instanceof ApiError))
    return error instanceof Error ? error.message : 'Something went wrong';
  let unplaced = false;
  for (const fieldError of error.fieldErrors) {
    const name = (fieldError.field ?? '').replace(/^body\./, '');
    const target = fields.find((f) => f === name) ?? fields.find((f) => f === name.split('.')[0]);
    if (target) setError(target, { type: 'server', message: fieldError.message ?? 'Invalid' });
    else unplaced = true;
  }
  return error.fieldErrors.length === 0 || unplaced ? error.message : undefined;
}
