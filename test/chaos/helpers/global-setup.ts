import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { findOrBuildTemporalCli } from '../../../runtime/embedded/temporal-cli.js';
import { buildServerBundle } from '../../../runtime/server-bundle.js';
import { bundleWorkflowsApart } from '../../../temporal/bundle-workflows.js';

export interface ChaosShared {
  temporalCli: string;
  workflowBundlePath: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    chaos: ChaosShared;
  }
}

const log = (line: string): void => console.log(`[chaos setup] ${line}`);

/**
 * What every chaos file shares and no fault touches: the Temporal CLI and the workflow bundle.
 * Each file starts its own PostgreSQL and Temporal dev server, which it stops and kills.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mailwright-chaos-'));
  const temporalCli = await findOrBuildTemporalCli({ configured: process.env.TEMPORAL_CLI, log });
  await buildServerBundle();
  const workflowBundlePath = await bundleWorkflowsApart(path.join(dir, 'workflow-bundle.js'));
  project.provide('chaos', { temporalCli, workflowBundlePath });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
