import { isGrpcServiceError, ServiceError } from '@temporalio/client';

// gRPC DEADLINE_EXCEEDED, RESOURCE_EXHAUSTED, UNAVAILABLE: worth another try.
const TRANSIENT_CODES = new Set([4, 8, 14]);

function isTransient(error: unknown): boolean {
  const cause = error instanceof ServiceError ? error.cause : error;
  return isGrpcServiceError(cause) && TRANSIENT_CODES.has(cause.code);
}

/**
 * Runs `call`, again on a transient Temporal error (a server that just started, or is busy,
 * answers DEADLINE_EXCEEDED to schedule and start calls for a while), until `timeoutMs` is spent.
 */
export async function retryTransient<T>(
  call: () => Promise<T>,
  {
    timeoutMs = 60_000,
    onRetry,
  }: { timeoutMs?: number; onRetry?: (error: unknown, delayMs: number) => void } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let delay = 250; ; delay = Math.min(delay * 2, 5000)) {
    try {
      return await call();
    } catch (error) {
      if (!isTransient(error) || Date.now() + delay > deadline) throw error;
      onRetry?.(error, delay);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
