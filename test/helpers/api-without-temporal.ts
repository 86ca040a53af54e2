import { freePort } from '../../runtime/embedded/free-port.js';
import { createClient, type Client } from './http.js';
import { runEntryPoint } from './processes.js';
import type { TestStack } from './stack.js';

/**
 * Runs `work` against a second API process of the stack's installation whose Temporal address
 * leads nowhere (whatever starts a workflow fails there); the process is stopped after.
 */
export async function withApiWithoutTemporal<T>(
  stack: Pick<TestStack, 'env'>,
  work: (api: Client) => Promise<T>,
): Promise<T> {
  const port = await freePort();
  const api = runEntryPoint('runtime/api.ts', {
    ...stack.env,
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
  });
  try {
    await api.waitForOutput(/"msg":"api listening"/, 90_000);
    return await work(createClient(`http://127.0.0.1:${port}`));
  } finally {
    await api.stop();
  }
}
