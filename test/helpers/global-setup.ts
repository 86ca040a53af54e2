import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate, openOrm } from '../../db/orm.js';
import { startEmbeddedPostgres } from '../../runtime/embedded/postgres.js';
import { findOrBuildStripeMock, startStripeMock } from '../../runtime/embedded/stripe-mock.js';
import { findOrBuildTemporalCli } from '../../runtime/embedded/temporal-cli.js';
import { startWatchedTemporalDevServer } from '../../runtime/embedded/temporal-server.js';
import { buildServerBundle } from '../../runtime/server-bundle.js';
import { bundleWorkflowsApart } from '../../temporal/bundle-workflows.js';

export interface SharedStack {
  dataDir: string;
  databaseUrl: string;
  temporalAddress: string;
  temporalCli: string;
  workflowBundlePath: string;
  /** A stripe-mock server (STRIPE_API_BASE of the files that turn billing on). */
  stripeApiBase: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    stack: SharedStack;
  }
}

const log = (line: string): void => console.log(`[setup] ${line}`);

/**
 * One PostgreSQL and one Temporal dev server for the whole run, each on a free port in a fresh
 * directory. Nothing is skipped when a part is missing: the setup brings it up or fails loudly.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'mailwright-test-'));
  await chmod(dataDir, 0o755);
  const stops: (() => Promise<void>)[] = [];

  let databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) {
    const postgres = await startEmbeddedPostgres({ dataDir, log });
    stops.push(postgres.stop);
    databaseUrl = postgres.url;
  }
  const orm = await openOrm({ url: databaseUrl });
  await migrate(orm);
  await orm.close();

  const temporalCli = await findOrBuildTemporalCli({ configured: process.env.TEMPORAL_CLI, log });
  const temporal = await startWatchedTemporalDevServer({
    cli: temporalCli,
    dataDir,
    headless: true,
    log,
  });
  stops.push(temporal.stop);

  const stripeMock = await startStripeMock({
    binary: await findOrBuildStripeMock({ configured: process.env.STRIPE_MOCK, log }),
    log,
  });
  stops.push(stripeMock.stop);

  // The API and worker processes the tests start run from the server bundle, as users run them.
  await buildServerBundle();
  // Bundled once here; every worker the tests start loads it instead of running webpack again.
  const workflowBundlePath = await bundleWorkflowsApart(path.join(dataDir, 'workflow-bundle.js'));

  project.provide('stack', {
    dataDir,
    databaseUrl,
    temporalAddress: temporal.address,
    temporalCli,
    workflowBundlePath,
    stripeApiBase: stripeMock.apiBase,
  });

  return async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  };
}
