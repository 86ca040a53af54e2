import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { SERVER_BUNDLE_DIR, SERVER_ENTRIES, type ServerEntry } from '../../runtime/entry-points.js';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * The command of an entry point: `runtime/api.ts`, `runtime/worker.ts` and `runtime/start.ts` run
 * from the server bundle as users run them (the global setups build it), other files under tsx.
 */
function commandOf(entry: string): string[] {
  const name = /^runtime\/([a-z-]+)\.ts$/.exec(entry)?.[1];
  return SERVER_ENTRIES.includes(name as ServerEntry)
    ? [path.join(SERVER_BUNDLE_DIR, `${name}.js`)]
    : ['--import', 'tsx', path.join(ROOT, entry)];
}

export interface RunningProcess {
  child: ChildProcess;
  output: () => string;
  /** Resolves once `pattern` has appeared on stdout or stderr. */
  waitForOutput: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  exited: Promise<number | null>;
  stop: (signal?: NodeJS.Signals) => Promise<void>;
}

/** Runs one of the entry points users run (`runtime/*.ts`) as a child process. */
export function runEntryPoint(
  entry: string,
  env: Record<string, string>,
  nodeArgs: string[] = [],
): RunningProcess {
  const child = spawn(process.execPath, [...nodeArgs, ...commandOf(entry)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
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
      await exited;
    },
  };
}
