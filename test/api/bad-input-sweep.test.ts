import { createHash } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import fc from 'fast-check';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import { eventually } from '../helpers/eventually.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';
import { resourceOf, seededFixture, type SweepFixture } from '../helpers/sweep/fixture.js';
import { categoriesOf, type SweepInput } from '../helpers/sweep/inputs.js';
import { operationsOf, type OpenApiDocument, type Operation } from '../helpers/sweep/openapi.js';
import { differences, rowCounter, type RowCounts } from '../helpers/sweep/row-counts.js';
import { envelopeProblem, sendInput, targetOf } from '../helpers/sweep/send.js';

// Issue 25: every operation /openapi.json lists, called with inputs fast-check builds from its
// schemas and then breaks (junk ids, wrong types, nulls, unknown fields, 100 KB and hostile text,
// 200-deep nesting, junk numbers, malformed JSON, wrong content types, broken uploads). No 5xx,
// every 4xx in the envelope, a refused request changes no row of the project or its owner.
// SWEEP_RUNS raises the inputs per operation and category; SWEEP_SEED picks another sample.
const RUNS = Number(process.env.SWEEP_RUNS ?? 2);
const SEED = Number(process.env.SWEEP_SEED ?? 25);
/** A file to write one line per request to (operation, input, status), for looking into a run. */
const LOG = process.env.SWEEP_LOG;

let stack: TestStack;
beforeAll(async () => {
  // The sweep makes thousands of calls with one project's key in a minute.
  stack = await startStack({ env: { RATE_LIMIT_PER_MINUTE: '10000000' } });
});
afterAll(async () => {
  await stack?.stop();
});

/** One seed per operation and category, so adding one never changes another's sample. */
const seedOf = (operation: string, category: string): number =>
  (SEED ^ createHash('sha256').update(`${operation} ${category}`).digest().readInt32BE(0)) | 0;

/** The path parameter that names the caller's own project, where the operation has one. */
function projectParamOf(operation: Operation): string | undefined {
  const projectPath =
    operation.credentials.includes('secretKey') &&
    operation.credentials.includes('session') &&
    !operation.credentials.includes('sessionWithProject');
  if (projectPath) return 'id';
  return operation.pathParams.find((p) => p.name === 'projectId')?.name;
}

/** An input as the failure list shows it: long text cut, so the report stays readable. */
function describeInput(input: SweepInput, target: string): string {
  const short = (text: string): string =>
    text.length > 120 ? `${text.slice(0, 60)}…(${text.length} chars)` : text;
  const body =
    input.body === undefined
      ? ''
      : input.body.type === 'json'
        ? ` body ${short(JSON.stringify(input.body.value))}`
        : input.body.type === 'text'
          ? ` ${input.body.contentType ?? 'no content type'} ${short(JSON.stringify(input.body.text))}`
          : ` multipart ${input.body.variant}`;
  return `[${input.category}, ${input.credential}] ${short(target)}${body}`;
}

/**
 * A seeded fixture, once the work its seeding started has ended (the verification email's token
 * is written by a workflow after the sign-up's answer; the tracked event leaves the outbox when
 * dispatched), so that no later count sees that land.
 */
async function freshFixture(client: pg.Client): Promise<SweepFixture> {
  const fixture = await seededFixture({
    api: stack.api,
    client,
    encryptionKey: stack.env.ENCRYPTION_KEY as string,
  });
  await eventually(
    async () => {
      const { rows } = await client.query<{ tokens: number; outbox: number }>(
        `SELECT (SELECT count(*) FROM auth_tokens WHERE user_id = $1)::int AS tokens,
                (SELECT count(*) FROM event_outbox WHERE project_id = $2)::int AS outbox`,
        [fixture.userId, fixture.caller.projectId],
      );
      return rows[0]?.tokens === 1 && rows[0].outbox === 0;
    },
    { what: "the fixture's verification token and its seeded event's dispatch" },
  );
  return fixture;
}

describe('bad-input sweep over /openapi.json', () => {
  it('answers every operation 4xx in the envelope, never 5xx, and a refusal changes nothing', async () => {
    const document = (await stack.api.get<OpenApiDocument>('/openapi.json')).body;
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThan(100);
    const histogram = new Map<string, number>();
    const defects: string[] = [];
    let requests = 0;
    let serverErrors = 0;
    let leaks = 0;

    await withDatabase(async (client) => {
      const countRows = await rowCounter(client);
      let fixture = await freshFixture(client);
      const scope = () => ({ projectId: fixture.caller.projectId, userId: fixture.userId });
      // The counts after a refusal are the counts before the next request: nothing else writes
      // to the fixture meanwhile (an accepted request's work is judged on a fresh fixture).
      let counted: RowCounts | undefined;
      for (const operation of operations) {
        const categories = categoriesOf(operation, {
          projectParam: projectParamOf(operation),
          resourceOf: (param) => resourceOf(operation.path, param),
        });
        for (const [category, arbitrary] of Object.entries(categories)) {
          const inputs = fc.sample(arbitrary, {
            seed: seedOf(operation.id, category),
            numRuns: RUNS,
          });
          for (const input of inputs) {
            requests += 1;
            const target = targetOf(operation, input, fixture.caller);
            const what = `${operation.method} ${operation.path} ${describeInput(input, target)}`;
            const before = counted ?? (await countRows(scope()));
            counted = undefined;
            const answer = await sendInput({
              baseUrl: stack.api.baseUrl,
              operation,
              input,
              caller: fixture.caller,
              clientAddress: `10.25.${(requests >> 8) & 255}.${requests & 255}`,
            });
            const status = answer.status === undefined ? 'aborted' : String(answer.status);
            if (LOG) appendFileSync(LOG, `${status} ${what} -> ${answer.text.slice(0, 200)}\n`);
            histogram.set(status, (histogram.get(status) ?? 0) + 1);
            if (answer.status === undefined) {
              // A client that aborts mid-upload cannot read an answer; anyone else must get one.
              if (!(input.body?.type === 'multipart' && input.body.variant === 'aborted'))
                defects.push(`${what}: no answer (${answer.text})`);
              continue;
            }
            if (answer.status >= 500) {
              serverErrors += 1;
              defects.push(`${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
              continue;
            }
            if (answer.status >= 400) {
              const problem = envelopeProblem(answer);
              if (problem)
                defects.push(`${what}: ${answer.status} not in the envelope (${problem})`);
              counted = await countRows(scope());
              const changed = differences(before, counted);
              if (changed.length > 0) {
                leaks += 1;
                defects.push(`${what}: refused ${answer.status} but changed ${changed.join(', ')}`);
              }
              continue;
            }
            // Accepted: what it started may still be writing, so later refusals are judged on
            // a project of their own.
            if (operation.method !== 'GET') fixture = await freshFixture(client);
          }
        }
      }
    });

    const statuses = [...histogram.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ');
    console.log(
      `sweep: ${operations.length} operations, ${requests} requests, statuses {${statuses}}, ` +
        `${serverErrors} 5xx, ${leaks} leaks`,
    );
    expect(defects).toEqual([]);
    expect(stack.apiProcess.child.exitCode).toBeNull();
    expect((await stack.api.get('/health')).status).toBe(200);
  }, 900_000);
});

// What the sweep found, held by one focused assertion each.
describe('defects the sweep found', () => {
  it('answers a docs asset named like an Object.prototype member with 404, not 500', async () => {
    for (const file of ['constructor', 'toString', 'valueOf', '__proto__', 'hasOwnProperty']) {
      const res = await stack.api.get(`/docs/assets/${file}`);
      expect(res.status, `${file}: ${res.text}`).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
    }
    expect((await stack.api.get('/docs/assets/swagger-ui.css')).status).toBe(200);
  });

  it('keeps a trigger or awaited event named like an Object.prototype member as that name', async () => {
    // canonicalEventName looked the name up in a plain object: `constructor` came back as the
    // Object function, stored as the text "function Object() { [native code] }".
    const { sk } = await projectFixture(stack.api);
    const workflow = await stack.api.post('/workflows', {
      ...sk,
      body: { name: 'Proto', triggerEvent: 'constructor' },
    });
    expect(workflow.status, workflow.text).toBe(201);
    expect(workflow.body.triggerEvent).toBe('constructor');
    const step = await stack.api.post(`/workflows/${workflow.body.id}/steps`, {
      ...sk,
      body: { type: 'WAIT_FOR_EVENT', config: { eventName: 'toString', timeoutSeconds: 60 } },
    });
    expect(step.status, step.text).toBe(201);
    expect(step.body.config.eventName).toBe('toString');
  });
});
