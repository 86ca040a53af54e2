import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bundleWorkflowCode } from '@temporalio/worker';

const run = promisify(execFile);
const thisFile = fileURLToPath(import.meta.url);

/** The workflows' entry module, bundled for the worker's sandbox. */
export const workflowsPath = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));

/**
 * Bundles the workflow code into `outFile` in a child process. The bundler (webpack) grows a
 * process by ~140 MB that V8 keeps long after it is done; done in the worker itself, that stays
 * in its resident memory for its whole life. The child is the same node with tsx, and none of
 * the parent's other flags (a profiler's, a heap limit's).
 */
export async function bundleWorkflowsApart(outFile: string): Promise<string> {
  await run(process.execPath, ['--import', 'tsx', thisFile, outFile], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return outFile;
}

// Run as a script: `node --import tsx temporal/bundle-workflows.ts <out file>`.
if (process.argv[1] === thisFile) {
  const outFile = process.argv[2];
  if (!outFile) throw new Error('usage: bundle-workflows.ts <out file>');
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
  await writeFile(outFile, code);
}
