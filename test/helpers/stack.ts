import { inject } from 'vitest';
import { launchStack, type TestStack } from './launch-stack.js';

export type { TestStack } from './launch-stack.js';

/** The API and worker of one test file, against the run's PostgreSQL and Temporal. */
export async function startStack({
  env,
}: { env?: Record<string, string> } = {}): Promise<TestStack> {
  return launchStack({ shared: inject('stack'), env });
}
