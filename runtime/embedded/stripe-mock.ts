import { spawn } from 'node:child_process';
import { freePort, waitForPort } from './free-port.js';
import { findOrBuildGoTool, type GoTool } from './go-tool.js';

export const STRIPE_MOCK_VERSION = 'v0.203.0';

const STRIPE_MOCK: GoTool = {
  title: 'stripe-mock',
  binary: 'stripe-mock',
  cacheName: 'stripe-mock',
  version: STRIPE_MOCK_VERSION,
  goPackage: `github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}`,
  envVar: 'STRIPE_MOCK',
  buildTime: 'a minute',
};

/** stripe-mock, found or built like the Temporal CLI (STRIPE_MOCK, PATH, cache, `go install`). */
export async function findOrBuildStripeMock({
  configured,
  log,
}: {
  configured?: string;
  log: (line: string) => void;
}): Promise<string> {
  return findOrBuildGoTool(STRIPE_MOCK, { configured, log });
}

/** A stripe-mock server on a free loopback port (plain HTTP), for tests and benchmarks. */
export async function startStripeMock({
  binary,
  log,
}: {
  binary: string;
  log: (line: string) => void;
}): Promise<{ apiBase: string; stop: () => Promise<void> }> {
  const port = await freePort();
  // Given only an HTTP address it still opens HTTPS on its default port (12112); a second free
  // port keeps two runs on one machine apart.
  const httpsPort = await freePort();
  const args = ['-http-addr', `127.0.0.1:${port}`, '-https-addr', `127.0.0.1:${httpsPort}`];
  const child = spawn(binary, args, {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
  });
  try {
    await waitForPort(port, '127.0.0.1', 60_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`stripe-mock did not start: ${output}`, { cause: error });
  }
  log(`stripe-mock listening on 127.0.0.1:${port}`);
  return {
    apiBase: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
