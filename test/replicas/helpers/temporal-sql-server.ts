import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort, portIsFree, waitForPort } from '../../../runtime/embedded/free-port.js';
import { waitForExit } from '../../../runtime/embedded/process-guard.js';
import type { TemporalServerTools } from '../../../runtime/embedded/temporal-server-tools.js';
import { eventually } from '../../helpers/eventually.js';
import {
  temporalServerConfig,
  type TemporalServerPorts,
  type TemporalStore,
} from './temporal-server-config.js';

/** The schemas temporal-sql-tool carries inside it (the module's schema/ folder, embedded). */
const SCHEMAS = {
  database: 'postgresql/v12/temporal',
  visibilityDatabase: 'postgresql/v12/visibility',
} as const;

function run(file: string, args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(
            new Error(`${path.basename(file)} ${args.join(' ')} exited with ${code}:\n${output}`),
          ),
    );
  });
}

/**
 * What an operator does once before the first start, with the server's own tool: creates the
 * two databases and applies every versioned schema (setup at 0.0, then update to the newest).
 */
export async function setUpTemporalSchema({
  sqlTool,
  store,
  log,
}: {
  sqlTool: string;
  store: TemporalStore;
  log: (line: string) => void;
}): Promise<void> {
  for (const which of ['database', 'visibilityDatabase'] as const) {
    const connect = [
      '--plugin',
      'postgres12',
      '--endpoint',
      store.host,
      '--port',
      String(store.port),
      '--user',
      store.user,
      '--database',
      store[which],
    ];
    // The password goes through the environment, not the command line.
    const env = { SQL_PASSWORD: store.password };
    await run(sqlTool, [...connect, 'create-database'], env);
    await run(sqlTool, [...connect, 'setup-schema', '--version', '0.0'], env);
    await run(sqlTool, [...connect, 'update-schema', '--schema-name', SCHEMAS[which]], env);
    log(`temporal-sql-tool: ${store[which]} created, schema ${SCHEMAS[which]} applied`);
  }
}

/**
 * A free port below 32768: the SQL schema keeps a member's port in a smallint
 * (cluster_membership.rpc_port), and a server on an ephemeral port (32768-60999 on Linux) stops
 * at start-up ("value ... is out of range for type smallint").
 */
async function freeMembershipPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await portIsFree(port, '127.0.0.1')) return port;
  }
}

export interface TemporalSqlServerHandle {
  address: string;
  pid: number;
  /** The server's own log (warnings and errors), for a failure's message. */
  logFile: string;
  stop: () => Promise<void>;
}

/**
 * A single-node Temporal server (`server start`, all four services) on PostgreSQL, on free
 * loopback ports, from a config written into `dir`. Ready once its frontend answers and the
 * system namespace exists (the server creates it on its first start).
 */
export async function startTemporalSqlServer({
  server,
  store,
  dir,
  log,
}: {
  server: TemporalServerTools['server'];
  store: TemporalStore;
  dir: string;
  log: (line: string) => void;
}): Promise<TemporalSqlServerHandle> {
  const configDir = path.join(dir, 'config');
  await mkdir(configDir, { recursive: true });
  const ports: TemporalServerPorts = {
    frontend: await freePort(),
    frontendHttp: await freePort(),
    frontendMembership: await freeMembershipPort(),
    history: await freePort(),
    historyMembership: await freeMembershipPort(),
    matching: await freePort(),
    matchingMembership: await freeMembershipPort(),
    worker: await freePort(),
    workerMembership: await freeMembershipPort(),
  };
  await writeFile(path.join(configDir, 'development.yaml'), temporalServerConfig({ store, ports }));

  const logFile = path.join(dir, 'server.log');
  const logStream = createWriteStream(logFile);
  const child = spawn(
    server,
    ['--root', dir, '--config', 'config', '--env', 'development', '--allow-no-auth', 'start'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout.pipe(logStream);
  child.stderr.pipe(logStream);
  let tail = '';
  const keepTail = (chunk: Buffer): void => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout.on('data', keepTail);
  child.stderr.on('data', keepTail);
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (!child.pid) throw new Error(`Could not start ${server}`);
  const pid = child.pid;
  const stopOnExit = (): void => {
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  process.once('exit', stopOnExit);

  const address = `127.0.0.1:${ports.frontend}`;
  const failed = exited.then((code) => {
    throw new Error(`the Temporal server exited with ${code}; the end of its log:\n${tail}`);
  });
  const ready = (async () => {
    await waitForPort(ports.frontend, '127.0.0.1', 120_000);
    const connection = await Connection.connect({ address });
    try {
      await eventually(
        () =>
          connection.workflowService
            .describeNamespace({ namespace: 'temporal-system' })
            .then(() => true)
            .catch(() => false),
        { what: 'the Temporal server to serve its system namespace', timeoutMs: 120_000 },
      );
    } finally {
      await connection.close();
    }
  })();
  await Promise.race([ready, failed]);
  failed.catch(() => undefined);
  log(`Temporal server ${address} on PostgreSQL (${store.database}, ${store.visibilityDatabase})`);

  return {
    address,
    pid,
    logFile,
    stop: async () => {
      process.off('exit', stopOnExit);
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        if (!(await waitForExit(pid, 20_000))) child.kill('SIGKILL');
        await exited;
      }
      logStream.end();
    },
  };
}
