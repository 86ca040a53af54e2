import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import {
  findOrBuildTemporalServerTools,
  type TemporalServerTools,
} from '../../../runtime/embedded/temporal-server-tools.js';
import { buildServerBundle } from '../../../runtime/server-bundle.js';
import { bundleWorkflowsApart } from '../../../temporal/bundle-workflows.js';

export interface ReplicasShared {
  tools: TemporalServerTools;
  workflowBundlePath: string;
}

declare module 'vitest' {
  export interface ProvidedContext {
    replicas: ReplicasShared;
  }
}

const log = (line: string): void => console.log(`[replicas setup] ${line}`);

/**
 * What the replica files share: the Temporal server and its schema tool (found, or built once
 * with `go install` and cached like the Temporal CLI) and the workflow bundle.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mailwright-replicas-'));
  const tools = await findOrBuildTemporalServerTools({ log });
  await buildServerBundle();
  const workflowBundlePath = await bundleWorkflowsApart(path.join(dir, 'workflow-bundle.js'));
  project.provide('replicas', { tools, workflowBundlePath });
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
