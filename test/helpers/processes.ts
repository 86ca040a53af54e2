import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

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
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', path.join(ROOT, entry)], {
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
