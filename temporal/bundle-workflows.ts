import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../runtime/project-root.js';

const run = promisify(execFile);

/** The workflows' entry module (a source file: the worker's sandbox gets it bundled by webpack). */
export const workflowsPath = path.join(PROJECT_ROOT, 'temporal', 'workflows', 'index.ts');

/**
 * Bundles the workflow code into `outFile` in a child process. The bundler (webpack) grows a
 * process by ~140 MB that V8 keeps long after it is done; done in the worker itself, that stays
 * in its resident memory for its whole life. The child is the same node with tsx, and none of
 * the parent's other flags (a profiler's, a heap limit's).
 */
export async function bundleWorkflowsApart(outFile: string): Promise<string> {
  const script = path.join(PROJECT_ROOT, 'temporal', 'bundle-workflows.cli.ts');
  await run(process.execPath, ['--import', 'tsx', script, workflowsPath, outFile], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return outFile;
}
