import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  startWatchedTemporalDevServer,
  type TemporalDevServerHandle,
} from '../../runtime/embedded/temporal-server.js';
import { isStuckStoreError } from '../../runtime/embedded/temporal-watchdog.js';
import { eventually } from '../helpers/eventually.js';

// Its own dev server: this test breaks the server's store on purpose.
let dataDir: string;
let server: TemporalDevServerHandle;
let connection: Connection;
const lines: string[] = [];

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'mailwright-watchdog-'));
  server = await startWatchedTemporalDevServer({
    cli: inject('stack').temporalCli,
    dataDir,
    headless: true,
    probeEveryMs: 1_000,
    log: (line) => lines.push(line),
  });
  connection = await Connection.connect({ address: server.address });
});

afterAll(async () => {
  await connection?.close();
  await server?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const describeDefault = () =>
  connection.workflowService.describeNamespace({ namespace: 'default' });

/** Calls that the server cancels mid-statement, as an overloaded machine makes it do. */
async function cancelledCalls(): Promise<void> {
  await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      connection
        .withDeadline(Date.now() + 1 + (i % 5), (): Promise<unknown> =>
          i % 2
            ? describeDefault()
            : connection.operatorService.listSearchAttributes({ namespace: 'default' }),
        )
        .catch(() => undefined),
    ),
  );
}

describe('the watched Temporal dev server', () => {
  it('is restarted when cancelled calls leave its store answering `interrupted (9)`, and keeps its state', async () => {
    const client = new Client({ connection });
    const schedule = await client.schedule.create({
      scheduleId: 'watchdog-keeps-this',
      spec: { intervals: [{ every: '1h' }] },
      action: { type: 'startWorkflow', workflowType: 'nothing', taskQueue: 'nowhere' },
    });
    const pidBefore = server.pid;

    // Break the store: bursts of cancelled calls until a plain call finds it stuck.
    let stuckSeen: unknown;
    for (let round = 0; round < 1_000 && !stuckSeen; round += 1) {
      await cancelledCalls();
      await describeDefault().catch((error: unknown) => {
        if (isStuckStoreError(error)) stuckSeen = error;
      });
    }
    expect(isStuckStoreError(stuckSeen), 'the store never got stuck').toBe(true);

    // The watchdog sees it and restarts the server on the same port and store.
    await eventually(() => lines.some((line) => line.includes('restarted')), {
      what: 'the watchdog to restart the server',
      timeoutMs: 90_000,
      describe: () => lines.join(' | '),
    });
    expect(server.pid).not.toBe(pidBefore);
    await eventually(
      () =>
        describeDefault().then(
          () => true,
          () => false,
        ),
      {
        what: 'the restarted server to answer',
        timeoutMs: 60_000,
      },
    );
    const kept = await schedule.describe();
    expect(kept.scheduleId).toBe('watchdog-keeps-this');
  }, 300_000);
});
