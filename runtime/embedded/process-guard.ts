import { readFile, rm, writeFile } from 'node:fs/promises';

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/**
 * A child left behind by a parent that was killed with SIGKILL keeps its pid in a file; the next
 * start stops it before starting a fresh one, so a crash never blocks a restart.
 */
export async function stopStaleProcess(
  pidFile: string,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<void> {
  const text = await readFile(pidFile, 'utf8').catch(() => undefined);
  const pid = Number.parseInt(text?.split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    process.kill(pid, signal);
    if (!(await waitForExit(pid, 10_000))) {
      process.kill(pid, 'SIGKILL');
      await waitForExit(pid, 5_000);
    }
  }
  await rm(pidFile, { force: true });
}

export async function recordPid(pidFile: string, pid: number): Promise<void> {
  await writeFile(pidFile, `${pid}\n`);
}

export { isAlive, waitForExit };
