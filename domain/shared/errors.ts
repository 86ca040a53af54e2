import type { ErrorCode } from './error-codes.pure.js';

export type { ErrorCode } from './error-codes.pure.js';

export interface FieldError {
  field: string;
  message: string;
  code: string;
}

/** A failure the caller can act on; the transport maps `code` to an HTTP status. */
export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly errors?: FieldError[];
  readonly suggestion?: string;

  constructor(
    code: ErrorCode,
    message: string,
    options: { errors?: FieldError[]; suggestion?: string; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DomainError';
    this.code = code;
    this.errors = options.errors;
    this.suggestion = options.suggestion;
  }
}

export const notFound = (what: string): DomainError =>
  new DomainError('NOT_FOUND', `${what} not found`);
export const forbidden = (message: string): DomainError => new DomainError('FORBIDDEN', message);
export const conflict = (message: string, suggestion?: string): DomainError =>
  new DomainError('CONFLICT', message, { suggestion });
/** A 503: something the request needs (Temporal, a provider) cannot be reached now. */
export const unavailable = (message: string, suggestion: string, cause?: unknown): DomainError =>
  new DomainError('SERVICE_UNAVAILABLE', message, { suggestion, cause });

/** The 422 VALIDATION_ERROR naming each field that is wrong, and why. */
export const validationError = (errors: FieldError | FieldError[]): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Validation failed', {
    errors: Array.isArray(errors) ? errors : [errors],
  });

/** The row or entity a lookup found, or the 404 naming what was looked for. */
export function requireFound<T>(found: T | null | undefined, what: string): T {
  if (found === null || found === undefined) throw notFound(what);
  return found;
}
