import { readFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralPortsStart, freePort, portIsFree } from '../../runtime/embedded/free-port.js';

describe('freePort', () => {
  it('picks ports below the range the kernel gives outgoing connections, with room for port + 1000', async () => {
    const start = ephemeralPortsStart();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port + 1000).toBeLessThan(start);
    }
    // Random, so parallel callers seldom meet.
    expect(new Set(ports).size).toBeGreaterThan(15);
  });

  it('returns a port a server can listen on, and that port is then no longer free', async () => {
    const port = await freePort();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    try {
      expect(await portIsFree(port, '127.0.0.1')).toBe(false);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('reads the ephemeral range from procfs on Linux', () => {
    const range = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8');
    expect(ephemeralPortsStart()).toBe(Number(range.split(/\s+/)[0]));
  });
});
