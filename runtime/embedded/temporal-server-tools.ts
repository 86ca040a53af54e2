import { findOrBuildGoTool, type GoTool } from './go-tool.js';

/**
 * The Temporal server the Temporal CLI v1.5.1 embeds (so the two builds share their modules),
 * and the newest that builds with Go 1.25/1.26 (v1.32 asks for Go >= 1.26.10).
 */
export const TEMPORAL_SERVER_VERSION = 'v1.29.1';

const SERVER: GoTool = {
  title: 'the Temporal server',
  // `go install` names it after its folder, cmd/server; too generic a name to look up on PATH.
  binary: 'server',
  searchPath: false,
  cacheName: 'temporal-server',
  version: TEMPORAL_SERVER_VERSION,
  goPackage: `go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION}`,
  envVar: 'TEMPORAL_SERVER',
  buildTime: '8-12 minutes',
};

const SQL_TOOL: GoTool = {
  title: "the Temporal server's SQL schema tool",
  // Released as temporal-sql-tool; `go install` names it after its folder, cmd/tools/sql.
  binary: 'sql',
  searchPath: false,
  cacheName: 'temporal-server',
  version: TEMPORAL_SERVER_VERSION,
  goPackage: `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`,
  envVar: 'TEMPORAL_SQL_TOOL',
  buildTime: 'under a minute after the server',
};

export interface TemporalServerTools {
  /** The server (`server start` with a config directory). */
  server: string;
  /** temporal-sql-tool: creates the databases and applies the schemas embedded in it. */
  sqlTool: string;
}

/**
 * A self-hosted Temporal server and its schema tool, found or built the way the Temporal CLI is
 * (go-tool.ts: TEMPORAL_SERVER / TEMPORAL_SQL_TOOL, the cached build under
 * ~/.cache/mailwright/temporal-server/<version>, then `go install`). For the replica tests,
 * which run the production shape: a server on PostgreSQL rather than the dev server.
 */
export async function findOrBuildTemporalServerTools({
  log,
}: {
  log: (line: string) => void;
}): Promise<TemporalServerTools> {
  const server = await findOrBuildGoTool(SERVER, {
    configured: process.env.TEMPORAL_SERVER,
    log,
  });
  const sqlTool = await findOrBuildGoTool(SQL_TOOL, {
    configured: process.env.TEMPORAL_SQL_TOOL,
    log,
  });
  return { server, sqlTool };
}
