import { fork, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from './logger.js';
import { PROJECT_ROOT } from './project-root.js';
import { entryPointCommand, type ServerEntry } from './entry-points.js';

/** Restart backoff: 1 s doubling to 30 s, back to 1 s once a part has stayed up a minute. */
export const RESTART_BACKOFF = { firstMs: 1_000, maxMs: 30_000, resetAfterMs: 60_000 };
const STOP_GRACE_MS = 30_000;

/** What a part tells its supervisor once it serves (see `reportReady`). */
export type ReadyMessage = { type: 'ready' } & Record<string, unknown>;

export interface SupervisedPart {
  name: string;
  /** Resolves with the first start's ready message; rejects if that start fails. */
  ready: Promise<ReadyMessage>;
  pid(): number | undefined;
  /** Stops the part (SIGTERM, then SIGKILL after a grace period) and stops restarting it. */
  stop(): Promise<void>;
}

export const nextBackoffMs = ({
  previousMs,
  upMs,
}: {
  previousMs: number;
  upMs: number;
}): number =>
  upMs >= RESTART_BACKOFF.resetAfterMs
    ? RESTART_BACKOFF.firstMs
    : Math.min(Math.max(previousMs * 2, RESTART_BACKOFF.firstMs), RESTART_BACKOFF.maxMs);

/**
 * Runs one entry point (`runtime/api.ts`, `runtime/worker.ts`) as a child process and starts it
 * again, with backoff, whenever it exits unexpectedly; the other parts keep running meanwhile.
 * The child gets its own process group, so a terminal's Ctrl-C reaches only the supervisor, which
 * stops the parts in its own order; the child stops by itself if the supervisor's IPC channel
 * closes. Its pid is kept in `<runDir>/<name>.pid` while it runs.
 */
export function supervise({
  name,
  entry,
  env,
  runDir,
  logger,
}: {
  name: string;
  entry: ServerEntry;
  env: Record<string, string>;
  runDir: string;
  logger: Logger;
}): SupervisedPart {
  const pidFile = path.join(runDir, `${name}.pid`);
  let child: ChildProcess | undefined;
  let stopping = false;
  let everReady = false;
  let backoffMs = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let resolveReady!: (message: ReadyMessage) => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<ReadyMessage>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => undefined);

  const start = (): void => {
    const startedAt = Date.now();
    const command = entryPointCommand(entry);
    const current = fork(command.file, [], {
      cwd: PROJECT_ROOT,
      execArgv: command.execArgv,
      env: { ...command.env, ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    child = current;
    const pid = current.pid;
    if (pid !== undefined)
      void mkdir(runDir, { recursive: true }).then(() => writeFile(pidFile, `${pid}\n`));
    current.on('message', (message: unknown) => {
      if (!isReady(message)) return;
      if (everReady) logger.warn({ part: name, childPid: pid }, `${name} is up again`);
      everReady = true;
      resolveReady(message);
    });
    current.on('error', (error) => logger.error({ err: error, part: name }, `${name} failed`));
    current.on('exit', (code, signal) => {
      if (child === current) child = undefined;
      if (stopping) return;
      const upMs = Date.now() - startedAt;
      if (!everReady) {
        rejectReady(new Error(`${name} exited before it was up (code ${code}, signal ${signal})`));
        return;
      }
      backoffMs = nextBackoffMs({ previousMs: backoffMs, upMs });
      logger.error(
        { part: name, childPid: pid, code, signal, upMs, restartInMs: backoffMs },
        `${name} exited unexpectedly (${signal ? `signal ${signal}` : `code ${code}`}); restarting`,
      );
      restartTimer = setTimeout(start, backoffMs);
    });
  };
  start();

  return {
    name,
    ready,
    pid: () => child?.pid,
    stop: async () => {
      stopping = true;
      clearTimeout(restartTimer);
      const current = child;
      if (current && current.exitCode === null && current.signalCode === null) {
        const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
        current.kill('SIGTERM');
        const force = setTimeout(() => current.kill('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(force);
      }
      await rm(pidFile, { force: true });
    },
  };
}

const isReady = (message: unknown): message is ReadyMessage =>
  typeof message === 'object' &&
  message !== null &&
  (message as { type?: unknown }).type === 'ready';
