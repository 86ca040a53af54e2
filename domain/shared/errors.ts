export type ErrorCode =
  | 'BAD_REQUEST'
  | 'VALIDATION_ERROR'
  | 'UNAUTHORIZED'
  | 'INVALID_API_KEY'
  | 'FORBIDDEN'
  | 'PROJECT_DISABLED'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'PAYLOAD_TOO_LARGE'
  | 'RATE_LIMIT_EXCEEDED'
  | 'BILLING_LIMIT_EXCEEDED'
  | 'SIGNUPS_DISABLED'
  | 'SERVICE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

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
    options: { errors?: FieldError[]; suggestion?: string } = {},
  ) {
    super(message);
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
export const fieldInvalid = (field: string, message: string, code = 'invalid'): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Validation failed', { errors: [{ field, message, code }] });
