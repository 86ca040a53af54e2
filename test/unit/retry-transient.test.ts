import { ServiceError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { retryTransient } from '../../temporal/retry-transient.js';

const grpcError = (code: number): ServiceError =>
  new ServiceError('Failed to describe schedule', {
    cause: Object.assign(new Error('context deadline exceeded'), {
      code,
      details: '',
      metadata: { get: () => [] },
    }),
  });

describe('retryTransient', () => {
  it('tries again after DEADLINE_EXCEEDED and UNAVAILABLE, then answers', async () => {
    const errors = [grpcError(4), grpcError(14)];
    let calls = 0;
    const result = await retryTransient(async () => {
      calls += 1;
      const next = errors.shift();
      if (next) throw next;
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(calls).toBe(3);
  });

  it('throws anything else at once', async () => {
    let calls = 0;
    const failing = retryTransient(async () => {
      calls += 1;
      throw grpcError(3); // INVALID_ARGUMENT
    });
    await expect(failing).rejects.toThrow('Failed to describe schedule');
    expect(calls).toBe(1);
  });

  it('gives up when the time is spent', async () => {
    let calls = 0;
    const failing = retryTransient(
      async () => {
        calls += 1;
        throw grpcError(4);
      },
      { timeoutMs: 600 },
    );
    await expect(failing).rejects.toThrow('Failed to describe schedule');
    expect(calls).toBeGreaterThan(1);
  });
});
