import type { Context, Middleware } from 'koa';
import { DomainError, type ErrorCode, type FieldError } from '../../domain/shared/errors.js';
import type { Logger } from '../../domain/shared/ports.js';

const STATUS_OF: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 422,
  UNAUTHORIZED: 401,
  INVALID_API_KEY: 401,
  FORBIDDEN: 403,
  SIGNUPS_DISABLED: 403,
  PROJECT_DISABLED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_REUSED: 409,
  PAYLOAD_TOO_LARGE: 413,
  RATE_LIMIT_EXCEEDED: 429,
  BILLING_LIMIT_EXCEEDED: 402,
  SERVICE_UNAVAILABLE: 503,
  INTERNAL_ERROR: 500,
};

export function statusOf(code: ErrorCode): number {
  return STATUS_OF[code];
}

export interface ErrorBody {
  success: false;
  error: {
    code: string;
    message: string;
    statusCode: number;
    requestId: string;
    errors?: FieldError[];
    suggestion?: string;
  };
  timestamp: string;
}

export function sendError(
  ctx: Context,
  {
    status,
    code,
    message,
    errors,
    suggestion,
  }: { status: number; code: string; message: string; errors?: FieldError[]; suggestion?: string },
): void {
  const body: ErrorBody = {
    success: false,
    error: {
      code,
      message,
      statusCode: status,
      requestId: String(ctx.state.requestId ?? ''),
      errors,
      suggestion,
    },
    timestamp: new Date().toISOString(),
  };
  ctx.status = status;
  ctx.body = body;
}

/** Errors raised by body parsing (co-body / raw-body) carry an HTTP status and a `type`. */
interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
}

/** Every failure leaves in the spec's envelope; a 500 says nothing about internals. */
export function errorEnvelope(logger: Logger): Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        sendError(ctx, {
          status: 404,
          code: 'NOT_FOUND',
          message: `No route for ${ctx.method} ${ctx.path}`,
        });
      }
    } catch (error) {
      if (error instanceof DomainError) {
        // One that carries a cause (an upstream that failed) is logged with its request.
        if (error.cause !== undefined)
          logger.warn(
            { err: error, requestId: ctx.state.requestId, path: ctx.path },
            'upstream failure',
          );
        sendError(ctx, {
          status: statusOf(error.code),
          code: error.code,
          message: error.message,
          errors: error.errors,
          suggestion: error.suggestion,
        });
        return;
      }
      const http = error as HttpishError;
      const status = http.status ?? http.statusCode;
      if (status === 413 || http.type === 'entity.too.large') {
        sendError(ctx, {
          status: 413,
          code: 'PAYLOAD_TOO_LARGE',
          message: 'The request body is too large',
          suggestion: 'Send a smaller body.',
        });
        return;
      }
      if (status === 400 || http.type === 'entity.parse.failed') {
        sendError(ctx, {
          status: 400,
          code: 'BAD_REQUEST',
          message: 'The request body is not valid JSON',
        });
        return;
      }
      if (status === 415) {
        sendError(ctx, {
          status: 415,
          code: 'BAD_REQUEST',
          message: 'Unsupported content type; send JSON',
        });
        return;
      }
      logger.error(
        { err: error, requestId: ctx.state.requestId, path: ctx.path },
        'unhandled error',
      );
      sendError(ctx, {
        status: 500,
        code: 'INTERNAL_ERROR',
        message: 'Something went wrong on our side',
      });
    }
  };
}
