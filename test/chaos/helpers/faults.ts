import { expect } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import type { ChaosStack } from './chaos-stack.js';

export type FaultKind = 'worker' | 'api' | 'temporal' | 'postgres';

export interface Fault {
  kind: FaultKind;
  /** As the scenario's line names it. */
  name: string;
  /** Breaks the part and brings it back (the restart a supervisor or an operator would do). */
  inject: (stack: ChaosStack) => Promise<void>;
}

/** The outage: PostgreSQL stays stopped this long. */
export const POSTGRES_OUTAGE_MS = 10_000;

/** Waits until /health/ready reports the outage: 503 naming `part` unreachable. */
async function readinessReportsDown(stack: ChaosStack, part: string): Promise<void> {
  let last = '';
  const seen = await eventually(
    async () => {
      const ready = await stack.readiness();
      last = `${ready.status} ${JSON.stringify(ready.body)}`;
      // 0 is no answer within the poll's bound: asked again until it answers.
      return ready.status !== 200 && ready.status !== 0 && ready;
    },
    {
      what: `/health/ready to report ${part} down`,
      timeoutMs: 30_000,
      intervalMs: 100,
      describe: () => last,
    },
  );
  expect(seen.status, last).toBe(503);
  expect(
    seen.body.error.errors.map((e: { field: string }) => e.field),
    last,
  ).toContain(part);
}

export const FAULTS: Record<FaultKind, Fault> = {
  worker: {
    kind: 'worker',
    name: 'worker SIGKILL',
    inject: async (stack) => {
      await stack.killWorker();
      await stack.startWorker();
    },
  },
  api: {
    kind: 'api',
    name: 'API SIGKILL',
    inject: async (stack) => {
      await stack.killApi();
      expect((await stack.readiness()).status).toBe(0);
      await stack.startApi();
    },
  },
  temporal: {
    kind: 'temporal',
    name: 'Temporal dev server killed and restarted',
    inject: async (stack) => {
      await stack.killTemporal();
      await readinessReportsDown(stack, 'temporal');
      await stack.startTemporal();
    },
  },
  postgres: {
    kind: 'postgres',
    name: `PostgreSQL stopped for ${POSTGRES_OUTAGE_MS / 1000} s`,
    inject: async (stack) => {
      const stoppedAt = Date.now();
      await stack.stopPostgres();
      await readinessReportsDown(stack, 'database');
      // The outage the issue asks for (not a wait for anything).
      await new Promise((r) =>
        setTimeout(r, Math.max(0, stoppedAt + POSTGRES_OUTAGE_MS - Date.now())),
      );
      await stack.startPostgres();
    },
  },
};

/**
 * After a fault: /health/ready answers 200 again by itself, and the API and the worker that ran
 * through the fault (or replaced the killed one) are still running: none needs a restart.
 */
export async function expectRecovered(stack: ChaosStack): Promise<void> {
  let last = '';
  await eventually(
    async () => {
      const ready = await stack.readiness();
      last = `${ready.status} ${JSON.stringify(ready.body)}`;
      return ready.status === 200;
    },
    {
      what: '/health/ready to answer 200',
      timeoutMs: 90_000,
      intervalMs: 200,
      describe: () => last,
    },
  );
  const { api, worker } = stack.processes();
  for (const [name, process] of [
    ['api', api],
    ['worker', worker],
  ] as const) {
    expect(
      { name, exitCode: process.child.exitCode, signal: process.child.signalCode },
      process.output().slice(-3000),
    ).toEqual({ name, exitCode: null, signal: null });
  }
}

/** Seconds since `since`, one decimal. */
export const secondsSince = (since: number): string => ((Date.now() - since) / 1000).toFixed(1);
