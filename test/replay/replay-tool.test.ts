import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectFixture } from '../helpers/project-fixture.js';
import { ROOT } from '../helpers/processes.js';
import { startStack, type TestStack } from '../helpers/stack.js';

// `npm run replay`, the pre-deploy check, against runs this file's stack makes: the working
// tree's code replays them; code changed on purpose is caught with the run and event named.

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function replay(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'runtime/replay.ts'), ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, out: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('npm run replay', () => {
  let projectId: string;
  const segmentIds: string[] = [];

  beforeAll(async () => {
    const { project, sk } = await projectFixture(stack.api);
    projectId = project.id;
    await stack.api.post('/contacts', {
      ...sk,
      body: { email: 'gold@example.com', data: { tier: 'gold' } },
    });
    for (const name of ['Gold A', 'Gold B']) {
      const made = await stack.api.post('/segments', {
        ...sk,
        body: {
          name,
          filters: {
            operator: 'AND',
            conditions: [{ field: 'data.tier', operator: 'equals', value: 'gold' }],
          },
          trackMembership: true,
        },
      });
      expect(made.status, made.text).toBe(201);
      segmentIds.push(made.body.id);
      const computed = await stack.api.post(`/segments/${segmentIds.at(-1)}/compute`, sk);
      expect(computed.status, computed.text).toBe(200);
    }
  });

  const address = () => inject('stack').temporalAddress;

  it("replays the project's closed runs against the working tree: counts per type, exit 0", async () => {
    const { code, out } = await replay([
      '--address',
      address(),
      '--project',
      projectId,
      '--since',
      '1h',
    ]);
    expect(out).toMatch(/^segmentCompute: 2 replayed, 0 diverged$/m);
    expect(out).toMatch(/replay: 2 runs of 1 workflow types, 0 diverged/);
    expect(code, out).toBe(0);
    // --limit and --type narrow it.
    const one = await replay([
      '--address',
      address(),
      '--project',
      projectId,
      '--type',
      'segmentCompute',
      '--limit',
      '1',
    ]);
    expect(one.out).toMatch(/^segmentCompute: 1 replayed, 0 diverged$/m);
    expect(one.code, one.out).toBe(0);
    const none = await replay([
      '--address',
      address(),
      '--project',
      projectId,
      '--type',
      'campaignSend',
    ]);
    expect(none.out).toMatch(/replay: 0 runs of 0 workflow types, 0 diverged/);
  }, 180_000); // three replays, each bundling the workflows: slow on a loaded 2-core machine

  it('names each run that diverges and its first differing event, and exits 1', async () => {
    const { code, out } = await replay([
      '--address',
      address(),
      '--project',
      projectId,
      '--workflows',
      path.join(ROOT, 'test/replay/fixtures/diverging-workflows.ts'),
    ]);
    expect(code, out).toBe(1);
    expect(out).toMatch(/^segmentCompute: 2 replayed, 2 diverged$/m);
    expect(out).toMatch(/Nondeterminism error: Timer machine does not handle this event/);
    for (const id of segmentIds) {
      expect(out).toMatch(
        new RegExp(
          `DIVERGED segmentCompute segment-compute-${id} run [0-9a-f-]{36}: first differing event 5 \\(EVENT_TYPE_ACTIVITY_TASK_SCHEDULED\\)`,
        ),
      );
    }
  });

  it('refuses bad arguments with exit 2 and the usage', async () => {
    for (const args of [
      ['--limit', '0'],
      ['--project', "x' OR 1=1"],
      ['--since', 'yesterday'],
    ]) {
      const { code, out } = await replay(['--address', address(), ...args]);
      expect(code, out).toBe(2);
      expect(out).toMatch(/npm run replay --/);
    }
  });
});
