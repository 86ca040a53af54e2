import type { z } from 'zod';
import { validationError } from '../../domain/shared/errors.js';
import { toFieldErrors } from '../../domain/shared/zod-problems.js';

export { toFieldErrors } from '../../domain/shared/zod-problems.js';

export function parseOrThrow<S extends z.ZodType>(
  schema: S,
  value: unknown,
  location?: string,
): z.output<S> {
  // With the input on each issue, a value of the wrong type is told apart from a missing one.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw validationError(toFieldErrors(result.error.issues, location));
}
