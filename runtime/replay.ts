// `npm run replay`: the pre-deploy check. Replays recent closed runs of the configured Temporal
// against this working tree's workflow code; exits 1 when any run diverges, 2 on bad arguments.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { connectionOptions } from '../temporal/connection-options.js';
import { closedRunsQuery, replayRecentRuns, type ReplayFilter } from '../temporal/replay-runs.js';
import { workflowsPath } from '../temporal/worker.js';
import { parseEnv } from './env-settings.js';

const USAGE = `npm run replay -- [--type <workflowType>] [--project <projectId>]
    [--since <ISO time | 24h | 7d>] [--until <ISO time>] [--limit <n, default 100>]
    [--address <host:port, default TEMPORAL_ADDRESS>] [--workflows <path to a workflows module>]`;

const DURATION = /^(\d+)([hd])$/;

/** An ISO time, or a span back from now (`24h`, `7d`). */
function timeArg(name: string, value: string | undefined, now: Date): Date | undefined {
  if (value === undefined) return undefined;
  const span = DURATION.exec(value);
  if (span) {
    const hours = Number(span[1]) * (span[2] === 'd' ? 24 : 1);
    return new Date(now.getTime() - hours * 3_600_000);
  }
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new Error(`--${name}: an ISO time or a span (24h, 7d)`);
  return time;
}

function filterOf(values: Record<string, string | undefined>): ReplayFilter {
  const now = new Date();
  const limit = values.limit === undefined ? 100 : Number(values.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 10_000) {
    throw new Error('--limit: a whole number from 1 to 10000');
  }
  return {
    workflowType: values.type,
    projectId: values.project,
    since: timeArg('since', values.since, now),
    until: timeArg('until', values.until, now),
    limit,
  };
}

async function main(): Promise<number> {
  let values: Record<string, string | undefined>;
  let filter: ReplayFilter;
  try {
    ({ values } = parseArgs({
      options: {
        type: { type: 'string' },
        project: { type: 'string' },
        since: { type: 'string' },
        until: { type: 'string' },
        limit: { type: 'string' },
        address: { type: 'string' },
        workflows: { type: 'string' },
      },
    }));
    filter = filterOf(values);
    closedRunsQuery(filter); // checks the type and project before connecting
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  // Only the Temporal settings: the pre-deploy check needs no secrets and no database.
  const env = parseEnv(process.env);
  const address = values.address ?? env.TEMPORAL_ADDRESS;
  if (!address) {
    console.error(`No Temporal to read from: set TEMPORAL_ADDRESS or --address.\n${USAGE}`);
    return 2;
  }
  const connection = await Connection.connect(
    connectionOptions({
      address,
      namespace: env.TEMPORAL_NAMESPACE,
      taskQueue: env.TEMPORAL_TASK_QUEUE,
      apiKey: env.TEMPORAL_API_KEY,
      tls: env.TEMPORAL_TLS,
    }),
  );
  try {
    const client = new Client({ connection, namespace: env.TEMPORAL_NAMESPACE });
    const summary = await replayRecentRuns({
      client,
      filter,
      workflows: {
        workflowsPath: values.workflows ? path.resolve(values.workflows) : workflowsPath,
      },
    });
    const types = Object.entries(summary.byType).sort(([a], [b]) => a.localeCompare(b));
    const total = types.reduce((n, [, c]) => n + c.replayed, 0);
    for (const [type, counts] of types) {
      console.log(`${type}: ${counts.replayed} replayed, ${counts.diverged} diverged`);
    }
    for (const d of summary.divergences) {
      const event = d.firstDifferingEvent
        ? `first differing event ${d.firstDifferingEvent.eventId} (${d.firstDifferingEvent.eventType})`
        : 'first differing event not named by the error';
      console.log(`DIVERGED ${d.workflowType} ${d.workflowId} run ${d.runId}: ${event}`);
      console.log(`  ${d.message.split('\n')[0]}`);
    }
    console.log(
      `replay: ${total} runs of ${types.length} workflow types, ${summary.divergences.length} diverged`,
    );
    return summary.divergences.length > 0 ? 1 : 0;
  } finally {
    await connection.close();
  }
}

process.exitCode = await main();
