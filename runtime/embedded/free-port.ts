import { readFileSync } from 'node:fs';
import net from 'node:net';

/** Where free ports are looked for: above the well-known ones, below the kernel's ephemeral range. */
const FIRST_PORT = 20_000;
/** Room above a port for a neighbour derived from it (the Temporal UI listens on port + 1000). */
const NEIGHBOUR_ROOM = 1_000;

/**
 * The first port the kernel hands to outgoing connections (Linux reads it from procfs; elsewhere
 * 32768 is below every default range, e.g. macOS's 49152).
 */
export function ephemeralPortsStart(): number {
  try {
    const low = Number(
      readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').split(/\s+/)[0],
    );
    if (Number.isInteger(low) && low > FIRST_PORT + NEIGHBOUR_ROOM) return low;
  } catch {
    // not Linux: fall through
  }
  return 32_768;
}

/**
 * A port nothing listens on, for a server started after this returns. It is picked at random
 * below the ephemeral range: a port the kernel chose for `listen(0)` is free again once closed,
 * and the kernel may then give it to any outgoing connection on the machine (a PostgreSQL or
 * Temporal client of a test running beside) before our server binds it.
 */
export async function freePort(): Promise<number> {
  const span = ephemeralPortsStart() - NEIGHBOUR_ROOM - FIRST_PORT;
  for (let attempt = 0; attempt < 100; attempt++) {
    const port = FIRST_PORT + Math.floor(Math.random() * span);
    if (await portIsFree(port, '127.0.0.1')) return port;
  }
  throw new Error(`No free port found between ${FIRST_PORT} and ${FIRST_PORT + span}`);
}

/** Whether `port` can be listened on at `host` now. */
export function portIsFree(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export function waitForPort(port: number, host = '127.0.0.1', timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      const socket = net.connect(port, host);
      socket.once('connect', () => {
        socket.destroy();
        resolve();
      });
      socket.once('error', () => {
        socket.destroy();
        if (Date.now() > deadline) reject(new Error(`Nothing listens on ${host}:${port}`));
        else setTimeout(attempt, 100);
      });
    };
    attempt();
  });
}
