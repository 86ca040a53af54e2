import type { z } from 'zod';
import type { FieldError } from './errors.js';

// Plunk clients know zod 3's names; zod 4 renamed a few of them.
const CODE_ALIASES: Record<string, string> = { invalid_format: 'invalid_string' };

/** zod's issues as the field errors of a 422, paths dotted under `prefix`. */
export function toFieldErrors(issues: z.core.$ZodIssue[], prefix?: string): FieldError[] {
  return issues.map((issue) => {
    const path = [...(prefix ? [prefix] : []), ...issue.path.map(String)];
    const missing =
      issue.code === 'invalid_type' && (issue as { input?: unknown }).input === undefined;
    // A custom check names its own code (`params.code`), such as a filter's `invalid_operator`.
    const own =
      issue.code === 'custom' ? (issue.params as { code?: unknown } | undefined)?.code : undefined;
    return {
      field: path.join('.') || '(root)',
      message: missing ? 'Required' : issue.message,
      code: missing
        ? 'required'
        : typeof own === 'string'
          ? own
          : (CODE_ALIASES[issue.code] ?? issue.code),
    };
  });
}
