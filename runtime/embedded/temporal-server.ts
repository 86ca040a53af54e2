import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { freePort, waitForPort } from './free-port.js';
import { recordPid, stopStaleProcess, waitForExit } from './process-guard.js';
import { namespaceProbe, watchTemporalDevServer } from './temporal-watchdog.js';

export interface TemporalDevServerHandle {
  address: string;
  uiUrl?: string;
  pid: number;
  stop(): Promise<void>;
}

export const PROJECT_ID_SEARCH_ATTRIBUTE = 'ProjectId';

export async function startTemporalDevServer({
  cli,
  dataDir,
  port: fixedPort,
  uiPort,
  headless = false,
  sqlitePragmas = ['journal_mode=wal', 'synchronous=normal'],
  detached = false,
  log,
}: {
  cli: string;
  dataDir: string;
  /** The frontend's port; a free one when not given (a restart passes the port it had). */
  port?: number;
  uiPort?: number;
  headless?: boolean;
  /** WAL with synchronous=normal stays durable across crashes and is much faster than the default. */
  sqlitePragmas?: string[];
  /** Out of our process group, so a terminal's Ctrl-C leaves it for our ordered shutdown. */
  detached?: boolean;
  log: (line: string) => void;
}): Promise<TemporalDevServerHandle> {
  const dir = path.join(dataDir, 'temporal');
  await mkdir(dir, { recursive: true });
  const pidFile = path.join(dir, 'server.pid');
  await stopStaleProcess(pidFile);

  const port = fixedPort ?? (await freePort());
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    path.join(dir, 'temporal.db'),
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--log-level',
    'error',
    '--search-attribute',
    `${PROJECT_ID_SEARCH_ATTRIBUTE}=Keyword`,
  ];
  for (const pragma of sqlitePragmas) args.push('--sqlite-pragma', pragma);
  if (headless) args.push('--headless');
  else args.push('--ui-port', String(uiPort ?? port + 1000));

  const child = spawn(cli, args, { stdio: ['ignore', 'ignore', 'pipe'], detached });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (!child.pid) throw new Error(`Could not start ${cli}`);
  await recordPid(pidFile, child.pid);

  const ready = waitForPort(port, '127.0.0.1', 60_000);
  const failed = exited.then((code) => {
    throw new Error(`temporal server start-dev exited with ${code}: ${stderr}`);
  });
  await Promise.race([ready, failed]);
  failed.catch(() => undefined);

  const uiUrl = headless ? undefined : `http://localhost:${uiPort ?? port + 1000}`;
  if (uiUrl) await waitForPort(uiPort ?? port + 1000, '127.0.0.1', 30_000).catch(() => undefined);

  const pid = child.pid;
  // Should the process end without stopping the server (an uncaught error), stop it anyway.
  const stopOnExit = (): void => {
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  process.once('exit', stopOnExit);
  return {
    address: `127.0.0.1:${port}`,
    uiUrl,
    pid,
    stop: async () => {
      process.off('exit', stopOnExit);
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        if (!(await waitForExit(pid, 15_000))) child.kill('SIGKILL');
        await exited;
      }
      await stopStaleProcess(pidFile);
      log('temporal dev server stopped');
    },
  };
}

/**
 * A dev server that a watchdog restarts, on the same port and store, when its store is stuck
 * (temporal-watchdog.ts). `npm start` and the test stack run this one.
 */
export async function startWatchedTemporalDevServer(
  options: Parameters<typeof startTemporalDevServer>[0] & {
    namespace?: string;
    probeEveryMs?: number;
  },
): Promise<TemporalDevServerHandle> {
  const { namespace = 'default', probeEveryMs, ...serverOptions } = options;
  let current = await startTemporalDevServer(serverOptions);
  const port = Number(current.address.split(':').pop());
  const { probe, close } = namespaceProbe({ address: current.address, namespace });
  const watchdog = watchTemporalDevServer({
    probe,
    everyMs: probeEveryMs,
    log: options.log,
    restart: async () => {
      await current.stop();
      current = await startTemporalDevServer({ ...serverOptions, port });
    },
  });
  return {
    address: current.address,
    uiUrl: current.uiUrl,
    get pid() {
      return current.pid;
    },
    stop: async () => {
      await watchdog.stop();
      await close();
      await current.stop();
    },
  };
}
