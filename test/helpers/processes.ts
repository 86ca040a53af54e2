import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import {
  bundledEntryCommand,
  FORCED_EXIT_MS,
  SERVER_ENTRIES,
  type ServerEntry,
} from '../../runtime/entry-points.js';
import { PROJECT_ROOT } from '../../runtime/project-root.js';

/** The project's folder, as the code under test finds it. */
export const ROOT = PROJECT_ROOT;

/**
 * The command of an entry point: `runtime/api.ts`, `runtime/worker.ts` and `runtime/start.ts` run
 * from the server bundle with their node flags and environment, as users run them (the global
 * setups build it); other files under tsx.
 */
function commandOf(entry: string): { flags: string[]; file: string; env: Record<string, string> } {
  const name = /^runtime\/([a-z-]+)\.ts$/.exec(entry)?.[1];
  if (!SERVER_ENTRIES.includes(name as ServerEntry)) {
    return { flags: ['--import', 'tsx'], file: path.join(ROOT, entry), env: {} };
  }
  const { file, execArgv, env } = bundledEntryCommand(name as ServerEntry);
  return { flags: execArgv, file, env };
}

/** How long `stop` waits after its signal before it kills the process outright. */
const STOP_GRACE_MS = FORCED_EXIT_MS + 15_000;

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves once `pattern` has appeared on stdout or stderr. */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/**
 * Runs one of the entry points users run (`runtime/*.ts`) as a child process; `nodeArgs` come
 * after the entry point's own flags (a bench's `--max-semi-space-size` wins) and `env` over its
 * environment.
 */
export function runEntryPoint(
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): RunningProcess {
  const command = commandOf(entry);
  const child = spawn(process.execPath, [...command.flags, ...nodeArgs, command.file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...command.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const listeners = new Set<() => void>();
  const onData = (chunk: Buffer): void => {
    output += chunk.toString();
    if (output.length > 2_000_000) output = output.slice(-1_000_000);
    for (const l of listeners) l();
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  const waitForOutput = (pattern: RegExp, timeoutMs = 60_000): Promise<RegExpMatchArray> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const match = output.match(pattern);
        if (match) {
          cleanup();
          resolve(match);
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `${entry}: ${pattern} not seen within ${timeoutMs} ms. Output:\n${output.slice(-3000)}`,
          ),
        );
      }, timeoutMs);
      const onExit = (): void => {
        cleanup();
        reject(new Error(`${entry} exited before ${pattern}. Output:\n${output.slice(-3000)}`));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        listeners.delete(listener);
        child.off('exit', onExit);
      };
      const listener = (): void => void check();
      if (check()) return;
      listeners.add(listener);
      child.once('exit', onExit);
    });

  return {
    child,
    output: () => output,
    waitForOutput,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      // As the supervisor does: a part still up after the grace is killed. It should never come
      // to that (a part exits by itself FORCED_EXIT_MS after SIGTERM at the latest), so say so
      // loudly with what the part printed last.
      const late = setTimeout(() => {
        process.stderr.write(
          `[processes] ${entry} (pid ${child.pid}) still running ${STOP_GRACE_MS} ms after ${signal}; killing it. Last output:\n${output.slice(-3000)}\n`,
        );
        child.kill('SIGKILL');
      }, STOP_GRACE_MS);
      await exited;
      clearTimeout(late);
    },
  };
}
