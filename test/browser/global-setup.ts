import { execFileSync } from 'node:child_process';
import { ROOT } from '../helpers/processes.js';
import setupSharedStack, { type SharedStack } from '../helpers/global-setup.js';

export const SHARED_STACK_ENV = 'MAILWRIGHT_BROWSER_STACK';

/**
 * The API tests' shared services (PostgreSQL, Temporal, stripe-mock, the workflow bundle), started
 * by the same setup, and a fresh build of the dashboard that the API serves at /app/. Workers
 * read the services from the environment and start their own API and worker (fixtures.ts).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  execFileSync('npm', ['run', 'build:web', '--silent'], { cwd: ROOT, stdio: 'inherit' });
  let shared: SharedStack | undefined;
  const teardown = await setupSharedStack({
    provide: (key: string, value: SharedStack) => {
      if (key === 'stack') shared = value;
    },
  } as unknown as Parameters<typeof setupSharedStack>[0]);
  if (!shared) throw new Error('The shared stack was not provided');
  process.env[SHARED_STACK_ENV] = JSON.stringify(shared);
  return teardown;
}
