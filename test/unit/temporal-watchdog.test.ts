import { describe, expect, it } from 'vitest';
import {
  isStuckStoreError,
  watchTemporalDevServer,
} from '../../runtime/embedded/temporal-watchdog.js';
import { eventually } from '../helpers/eventually.js';

// The answer a dev server gave every call for the rest of a loaded CI run (recorded 2026-11-24).
const stuck = (): Error =>
  Object.assign(new Error('14 UNAVAILABLE: GetNamespace operation failed. Error interrupted (9)'), {
    code: 14,
  });
const slow = (): Error => Object.assign(new Error('4 DEADLINE_EXCEEDED: deadline'), { code: 4 });

function probeAnswering(answers: (Error | undefined)[]): () => Promise<void> {
  return async () => {
    const answer = answers.shift();
    if (answer) throw answer;
  };
}

describe('the Temporal dev server watchdog', () => {
  it('recognises the stuck-store answers, also as the cause of a wrapped error', () => {
    expect(isStuckStoreError(stuck())).toBe(true);
    expect(isStuckStoreError(new Error('SQL logic error: no such table: namespaces (1)'))).toBe(
      true,
    );
    expect(isStuckStoreError(new Error('wrapped', { cause: stuck() }))).toBe(true);
    expect(isStuckStoreError(slow())).toBe(false);
    expect(isStuckStoreError('interrupted (9)')).toBe(false);
  });

  it('restarts after three stuck probes in a row, and only then', async () => {
    let restarts = 0;
    const watchdog = watchTemporalDevServer({
      probe: probeAnswering([stuck(), stuck(), undefined, stuck(), stuck(), stuck()]),
      restart: async () => {
        restarts += 1;
      },
      log: () => undefined,
      everyMs: 5,
    });
    await eventually(() => restarts === 1, { what: 'a restart', intervalMs: 5 });
    await watchdog.stop();
    expect(restarts).toBe(1);
  });

  it('leaves a slow or unreachable server alone', async () => {
    let restarts = 0;
    let probes = 0;
    const answers = [slow(), slow(), slow(), slow(), new Error('connect ECONNREFUSED'), slow()];
    const watchdog = watchTemporalDevServer({
      probe: async () => {
        probes += 1;
        const answer = answers.shift();
        if (answer) throw answer;
      },
      restart: async () => {
        restarts += 1;
      },
      log: () => undefined,
      everyMs: 5,
    });
    await eventually(() => probes > 8, { what: 'nine probes', intervalMs: 5 });
    await watchdog.stop();
    expect(restarts).toBe(0);
  });
});
