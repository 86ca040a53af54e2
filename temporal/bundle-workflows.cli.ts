// `node --import tsx temporal/bundle-workflows.cli.ts <workflows entry> <out file>`: what
// bundleWorkflowsApart runs in its child process.
import { writeFile } from 'node:fs/promises';
import { bundleWorkflowCode } from '@temporalio/worker';

const [workflowsPath, outFile] = process.argv.slice(2);
if (!workflowsPath || !outFile) {
  throw new Error('usage: bundle-workflows.cli.ts <workflows entry> <out file>');
}
const { code } = await bundleWorkflowCode({
  workflowsPath,
  logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
});
await writeFile(outFile, code);
