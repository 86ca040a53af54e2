import { findOrBuildGoTool, type GoTool } from './go-tool.js';

export const TEMPORAL_CLI_VERSION = 'v1.5.1';

const TEMPORAL_CLI: GoTool = {
  title: 'the Temporal CLI',
  binary: 'temporal',
  cacheName: 'temporal-cli',
  version: TEMPORAL_CLI_VERSION,
  goPackage: `github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`,
  envVar: 'TEMPORAL_CLI',
  buildTime: '3-6 minutes',
};

/**
 * The Temporal CLI, found or built (ARCHITECTURE.md's order: TEMPORAL_CLI, `temporal` on PATH,
 * the cached build, then `go install`). Without Go, set TEMPORAL_CLI or point TEMPORAL_ADDRESS at
 * an existing Temporal server.
 */
export async function findOrBuildTemporalCli({
  configured,
  log,
}: {
  configured?: string;
  log: (line: string) => void;
}): Promise<string> {
  return findOrBuildGoTool(TEMPORAL_CLI, { configured, log });
}
