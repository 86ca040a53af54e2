import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { eventually } from '../../helpers/eventually.js';
import { projectFixture } from '../../helpers/project-fixture.js';
import { buildWorkflow } from '../../helpers/workflows.js';
import { chaosDomain, type ChaosStack } from './chaos-stack.js';
import { describeStrayExecutions } from './diagnose.js';
import { expectRecovered, secondsSince, type Fault } from './faults.js';

/**
 * The sizes (measured: the 16 scenarios in about 8 minutes on 2 cores).
 * CHAOS_SCALE=reduced halves the campaign, the events and the segment for a quicker local run;
 * the kinds of work, the faults and the checks stay the same.
 */
const FULL = process.env.CHAOS_SCALE !== 'reduced';
export const SIZES = {
  campaignRecipients: FULL ? 10_000 : 5_000,
  importRows: 30_000,
  /** Tracked events: signups that start executions, then purchases that end some of the waits. */
  signups: FULL ? 1_200 : 600,
  purchases: FULL ? 800 : 400,
  /** Contacts the tracked segment's compute goes through (an even number). */
  segmentContacts: FULL ? 100_000 : 50_000,
};

/** The environment the chaos files' stacks run with (batch sizes that leave time for a fault). */
export const CHAOS_ENV: Record<string, string> = {
  // The campaign is sent as fast as two connections go: no project throttle in the way.
  SEND_RATE_PER_SECOND: '100000',
  SMTP_POOL_SIZE: '2',
  IMPORT_BATCH_SIZE: '500',
  SEGMENT_COMPUTE_BATCH_SIZE: '5000',
  // Short lane runs: a lane that lost its activity to an outage is replaced within seconds.
  AUTOMATION_DISPATCH_LANE_SECONDS: '10',
  EMAIL_DELIVERY_LANE_SECONDS: '10',
};

const log = (line: string): void => console.log(`chaos: ${line}`);

/** Polls `check`, treating an error (a part that is down) as "not yet". */
async function until<T>(
  check: () => Promise<T | false | null | undefined>,
  what: string,
  { timeoutMs = 300_000, intervalMs = 100 } = {},
): Promise<T> {
  let last = '';
  return eventually(
    async () => {
      try {
        const value = await check();
        last = JSON.stringify(value);
        return value;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
        return false;
      }
    },
    { what, timeoutMs, intervalMs, describe: () => last },
  );
}

const count = async (stack: ChaosStack, text: string, params: unknown[]): Promise<number> =>
  Number((await stack.query<{ n: number }>(text, params))[0]?.n ?? 0);

// ---------------------------------------------------------------------------------------------
// (a) A campaign to `recipients` contacts
// ---------------------------------------------------------------------------------------------

export async function campaignScenario(stack: ChaosStack, fault: Fault): Promise<void> {
  const recipients = SIZES.campaignRecipients;
  const { sk, project } = await projectFixture(stack.api);
  const { domain } = await chaosDomain(stack, sk.key);
  const tag = randomUUID().slice(0, 8);
  await stack.query(
    `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
     SELECT uuid_generate_v7(), $1, 'r' || n || '-' || $3 || '@example.com', true, '{}', now(), now(), now()
       FROM generate_series(1, $2::int) AS n`,
    [project.id, recipients, tag],
  );
  const subject = `Chaos ${tag}`;
  const created = await stack.api.post('/campaigns', {
    ...sk,
    body: {
      name: 'Chaos',
      subject,
      body: '<p>Hello {{ email }}</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    },
  });
  expect(created.status, created.text).toBe(201);
  const campaignId = created.body.data.id as string;
  const mine = () => stack.smtp.messages.filter((m) => m.parsed.subject === subject);
  const sentRows = () =>
    count(
      stack,
      `SELECT count(*)::int AS n FROM emails WHERE campaign_id = $1 AND status = 'SENT'`,
      [campaignId],
    );

  const sent = await stack.api.post(`/campaigns/${campaignId}/send`, sk);
  expect(sent.status, sent.text).toBe(200);
  await until(async () => mine().length >= recipients * 0.3 && true, 'a third delivered', {
    intervalMs: 10,
  });

  const faultAt = Date.now();
  const deliveredAtFault = mine().length;
  if (fault.kind === 'worker') {
    // The one gap no SMTP client can close is a 250 received and the worker dead before its
    // commit (docs/api.md): the kill is aimed outside it. The server holds the next messages
    // unanswered, every answered one is recorded SENT, then the worker dies with messages in
    // flight (never answered, so the server drops them and they must be sent again).
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held: { closed: () => boolean }[] = [];
    stack.smtp.setResponder(async (message, connection) => {
      if (message.to.some((t) => t.endsWith(`-${tag}@example.com`))) {
        held.push(connection);
        await released;
      }
    });
    try {
      await until(
        async () => held.length >= 2 && (await sentRows()) === mine().length,
        'held messages with every answered one SENT',
        { intervalMs: 10, timeoutMs: 60_000 },
      );
      await stack.killWorker();
      await until(async () => held.every((c) => c.closed()), 'the held connections to close', {
        intervalMs: 10,
        timeoutMs: 30_000,
      });
    } finally {
      stack.smtp.setResponder(undefined);
      release();
    }
    await stack.startWorker();
  } else {
    await fault.inject(stack);
  }
  await expectRecovered(stack);

  const done = await until(
    async () => {
      const res = await stack.api.get(`/campaigns/${campaignId}`, sk);
      return res.status === 200 && res.body.data.status !== 'SENDING' && res.body.data;
    },
    'the campaign to finish',
    { timeoutMs: 600_000, intervalMs: 500 },
  );
  await until(async () => mine().length >= recipients && true, 'every recipient reached', {
    timeoutMs: 60_000,
  });
  const recovered = secondsSince(faultAt);

  const counts = new Map<string, number>();
  for (const m of mine()) for (const t of m.to) counts.set(t, (counts.get(t) ?? 0) + 1);
  const doubled = [...counts.values()].reduce((sum, n) => sum + Math.max(0, n - 1), 0);
  const lost = recipients - counts.size;
  log(
    `${fault.name} during campaign ${recipients}: delivered ${counts.size} (${deliveredAtFault} at the fault), lost ${lost}, doubled ${doubled}, recovered in ${recovered} s`,
  );
  expect(done.status).toBe('SENT');
  expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
  expect(mine()).toHaveLength(recipients);
  const stats = await stack.api.get(`/campaigns/${campaignId}/stats`, sk);
  expect(stats.body.data).toMatchObject({
    recipients,
    sent: recipients,
    skipped: 0,
    failed: 0,
    cancelled: 0,
    queued: 0,
    pending: 0,
  });
}

// ---------------------------------------------------------------------------------------------
// (b) A CSV import of `rows` rows
// ---------------------------------------------------------------------------------------------

export async function importScenario(stack: ChaosStack, fault: Fault): Promise<void> {
  const rows = SIZES.importRows;
  const { project, sk } = await projectFixture(stack.api);
  const tag = randomUUID().slice(0, 8);
  const lines = ['email,first_name,plan'];
  for (let i = 0; i < rows; i += 1) lines.push(`u${i}-${tag}@import.test,Name ${i},p${i % 3}`);
  const res = await stack.api.upload('/contacts/import', {
    field: 'file',
    content: `${lines.join('\n')}\n`,
    key: project.secretKey,
  });
  expect(res.status, res.text).toBe(202);
  const jobId = res.body.jobId as string;
  const processed = () => count(stack, 'SELECT processed AS n FROM jobs WHERE id = $1', [jobId]);
  const processedAtFault = await until(
    async () => {
      const n = await processed();
      return n >= rows * 0.3 && n;
    },
    'a third of the rows imported',
    { intervalMs: 10 },
  );
  expect(processedAtFault).toBeLessThan(rows);

  const faultAt = Date.now();
  await fault.inject(stack);
  await expectRecovered(stack);
  const job = await until(
    async () => {
      const got = await stack.api.get(`/contacts/import/${jobId}`, sk);
      return got.status === 200 && !['QUEUED', 'RUNNING'].includes(got.body.status) && got.body;
    },
    'the import to finish',
    { timeoutMs: 300_000, intervalMs: 200 },
  );
  const recovered = secondsSince(faultAt);

  const imported = await count(
    stack,
    `SELECT count(DISTINCT email)::int AS n FROM contacts WHERE project_id = $1 AND email LIKE $2`,
    [project.id, `%-${tag}@import.test`],
  );
  const lost = rows - imported;
  const doubled = Math.max(0, job.result.created + job.result.updated - rows) + job.result.updated;
  log(
    `${fault.name} during import ${rows}: imported ${imported} (${processedAtFault} at the fault), lost ${lost}, doubled ${doubled}, recovered in ${recovered} s`,
  );
  expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
  expect(job).toMatchObject({
    status: 'COMPLETED',
    progress: { processed: rows, total: rows },
    result: { created: rows, updated: 0, failed: 0, skipped: 0 },
  });
  const contacts = await stack.api.get('/contacts?limit=1', sk);
  expect(contacts.body.total).toBe(rows);
}

// ---------------------------------------------------------------------------------------------
// (c) Tracked events driving executions with a DELAY and a WAIT_FOR_EVENT
// ---------------------------------------------------------------------------------------------

async function trackAll(
  stack: ChaosStack,
  key: string,
  events: { email: string; event: string }[],
): Promise<void> {
  const parallel = 8;
  for (let i = 0; i < events.length; i += parallel) {
    await Promise.all(
      events.slice(i, i + parallel).map(async ({ email, event }) => {
        const res = await stack.api.post('/v1/track', { key, body: { email, event } });
        expect(res.status, res.text).toBe(200);
      }),
    );
  }
}

export async function eventsScenario(stack: ChaosStack, fault: Fault): Promise<void> {
  const { signups, purchases } = SIZES;
  const { sk, project } = await projectFixture(stack.api);
  const workflow = await buildWorkflow(stack.api, sk, {
    steps: {
      pause: { type: 'DELAY', config: { amount: 2, unit: 'seconds' } },
      wait: { type: 'WAIT_FOR_EVENT', config: { eventName: 'purchase', timeoutSeconds: 86_400 } },
      convert: { type: 'UPDATE_CONTACT', config: { data: { converted: true } } },
      gaveUp: { type: 'EXIT', config: { reason: 'no purchase' } },
    },
    links: [
      ['pause', 'wait'],
      ['wait', 'convert', 'event'],
      ['wait', 'gaveUp', 'timeout'],
    ],
  });
  const waitStep = workflow.steps.wait as string;
  const tag = randomUUID().slice(0, 8);
  const emails = Array.from({ length: signups }, (_, i) => `e${i}-${tag}@events.test`);
  const executions = (status?: string) =>
    count(
      stack,
      `SELECT count(*)::int AS n FROM executions WHERE workflow_id = $1${status ? ' AND status = $2' : ''}`,
      status ? [workflow.id, status] : [workflow.id],
    );

  // Half the signups, then the fault while their executions start and sleep, then the rest.
  // (The events are paused over the fault: a request cut off by it cannot tell its client whether
  // it was accepted, and the client's retry would be a second event by design.)
  const half = Math.floor(signups / 2);
  await trackAll(
    stack,
    sk.key,
    emails.slice(0, half).map((email) => ({ email, event: 'signup' })),
  );
  const startedAtFault = await until(
    async () => {
      const n = await executions();
      return n >= half * 0.3 && n;
    },
    'executions to start',
    { intervalMs: 20 },
  );
  const faultAt = Date.now();
  await fault.inject(stack);
  await expectRecovered(stack);
  await trackAll(
    stack,
    sk.key,
    emails.slice(half).map((email) => ({ email, event: 'signup' })),
  );
  const waitingAtStep = () =>
    count(
      stack,
      `SELECT count(*)::int AS n FROM executions
        WHERE workflow_id = $1 AND status = 'WAITING' AND current_step_id = $2`,
      [workflow.id, waitStep],
    );
  const byStatus = async () =>
    stack.query(
      `SELECT status, current_step_id = $2 AS at_wait, count(*)::int AS n FROM executions
        WHERE workflow_id = $1 GROUP BY 1, 2 ORDER BY 1, 2`,
      [workflow.id, waitStep],
    );
  await until(
    async () => {
      if ((await waitingAtStep()) === signups) return true;
      throw new Error(`not yet: ${JSON.stringify(await byStatus())}`);
    },
    'every execution at its wait',
    { timeoutMs: 300_000, intervalMs: 250 },
  ).catch(async (error: Error) => {
    const strays = await describeStrayExecutions(stack, {
      workflowId: workflow.id,
      where: `status = 'WAITING' AND current_step_id = '${waitStep}'`,
    }).catch((cause: Error) => `(not described: ${cause.message})`);
    throw new Error(`${error.message}\n${strays}`);
  });
  await trackAll(
    stack,
    sk.key,
    emails.slice(0, purchases).map((email) => ({ email, event: 'purchase' })),
  );
  await until(
    async () => (await executions('COMPLETED')) === purchases,
    'the purchasers to complete',
    { timeoutMs: 300_000, intervalMs: 250 },
  );
  const recovered = secondsSince(faultAt);

  const [summary] = await stack.query(
    `SELECT count(*)::int AS executions,
            count(DISTINCT x.contact_id)::int AS contacts,
            count(*) FILTER (WHERE x.status = 'COMPLETED')::int AS completed,
            count(*) FILTER (WHERE x.status = 'WAITING' AND x.current_step_id = $2)::int AS waiting,
            (SELECT count(*)::int FROM (
               SELECT 1 FROM execution_steps s JOIN executions e ON e.id = s.execution_id
                WHERE e.workflow_id = $1 GROUP BY s.execution_id, s.step_id HAVING count(*) > 1
             ) twice) AS repeated_steps,
            (SELECT count(*)::int FROM contacts c
              WHERE c.project_id = $3 AND c.data->>'converted' = 'true') AS converted
       FROM executions x WHERE x.workflow_id = $1`,
    [workflow.id, waitStep, project.id],
  );
  const lost = signups - summary.contacts;
  const doubled = summary.executions - summary.contacts + summary.repeated_steps;
  log(
    `${fault.name} during ${signups + purchases} tracked events: executions ${summary.executions} (${startedAtFault} at the fault), completed ${summary.completed}, waiting ${summary.waiting}, lost ${lost}, doubled ${doubled}, recovered in ${recovered} s`,
  );
  expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
  expect(summary).toMatchObject({
    executions: signups,
    completed: purchases,
    waiting: signups - purchases,
    converted: purchases,
  });
  // Every event dispatched and every command carried out: nothing left behind.
  expect(
    await count(
      stack,
      `SELECT (SELECT count(*) FROM event_outbox WHERE project_id = $1)
            + (SELECT count(*) FROM execution_commands c JOIN executions x ON x.id = c.execution_id
                WHERE x.workflow_id = $2)::int AS n`,
      [project.id, workflow.id],
    ),
  ).toBe(0);
}

// ---------------------------------------------------------------------------------------------
// (d) A tracked segment's compute, with entries and exits
// ---------------------------------------------------------------------------------------------

export async function segmentScenario(stack: ChaosStack, fault: Fault): Promise<void> {
  const contacts = SIZES.segmentContacts;
  const { sk, project } = await projectFixture(stack.api);
  await stack.query(
    `INSERT INTO contacts (id, project_id, email, subscribed, data, subscription_changed_at, created_at, updated_at)
     SELECT uuid_generate_v7(), $1, 'c' || n || '@segment.test', true,
            jsonb_build_object('n', n, 'even', n % 2 = 0), now(), now(), now()
       FROM generate_series(1, $2::int) AS n`,
    [project.id, contacts],
  );
  await stack.query('ANALYZE contacts');
  const created = await stack.api.post('/segments', {
    ...sk,
    body: {
      name: 'Even',
      filters: {
        operator: 'AND',
        conditions: [{ field: 'data.even', operator: 'equals', value: true }],
      },
      trackMembership: true,
    },
  });
  expect(created.status, created.text).toBe(201);
  const segmentId = created.body.id as string;
  const first = await stack.api.post(`/segments/${segmentId}/compute`, sk);
  expect(first.body).toEqual({ added: contacts / 2, removed: 0, total: contacts / 2 });

  // Every third contact flips: odd ones enter, even ones leave.
  await stack.query(
    `UPDATE contacts SET data = jsonb_set(data, '{even}', to_jsonb(NOT (data->>'even')::boolean))
      WHERE project_id = $1 AND (data->>'n')::int % 3 = 0`,
    [project.id],
  );
  const flipped = Math.floor(contacts / 3);
  const leaving = Math.floor(contacts / 6);
  const entering = flipped - leaving;
  const members = contacts / 2 - leaving + entering;

  const progress = async () =>
    (
      await stack.query<{ run_id: string; after_contact_id: string; done: boolean }>(
        `SELECT run_id, after_contact_id, done FROM segment_computes
          WHERE segment_id = $1 ORDER BY created_at DESC LIMIT 1`,
        [segmentId],
      )
    )[0];
  const firstRun = (await progress())?.run_id;
  const computing = stack.api.post(`/segments/${segmentId}/compute`, sk).catch(() => undefined);
  const atFault = await until(
    async () => {
      const now = await progress();
      return (
        now?.run_id !== firstRun &&
        now?.after_contact_id !== '00000000-0000-0000-0000-000000000000' &&
        now
      );
    },
    'the compute to make progress',
    { intervalMs: 10, timeoutMs: 60_000 },
  );
  const faultAt = Date.now();
  await fault.inject(stack);
  await expectRecovered(stack);
  await until(async () => (await progress())?.done === true, 'the compute to finish', {
    timeoutMs: 300_000,
    intervalMs: 200,
  });
  const recovered = secondsSince(faultAt);
  await computing;

  await stack.query('ANALYZE contacts, segment_members, events');
  const [check] = await stack.query(
    `WITH per AS (
       SELECT contact_id,
              count(*) FILTER (WHERE name = 'segment.even.entry') AS entries,
              count(*) FILTER (WHERE name = 'segment.even.exit') AS exits
         FROM events WHERE project_id = $2 AND name IN ('segment.even.entry', 'segment.even.exit')
        GROUP BY contact_id)
     SELECT
       (SELECT count(*)::int FROM segment_members WHERE segment_id = $1) AS members,
       (SELECT count(*)::int FROM segment_members m JOIN contacts c ON c.id = m.contact_id
         WHERE m.segment_id = $1 AND (c.data->>'even')::boolean) AS even_members,
       (SELECT coalesce(sum(entries), 0)::int FROM per) AS entries,
       (SELECT coalesce(sum(exits), 0)::int FROM per) AS exits,
       (SELECT count(*)::int FROM per WHERE entries > 1 OR exits > 1) AS repeated`,
    [segmentId, project.id],
  );
  const expectedEvents = contacts / 2 + entering + leaving;
  const events = check.entries + check.exits;
  const doubled = Math.max(0, events - expectedEvents) + check.repeated;
  const lost = Math.max(0, expectedEvents - events);
  log(
    `${fault.name} during segment compute ${contacts}: entries ${check.entries}, exits ${check.exits}, members ${check.members} (${atFault.after_contact_id.slice(-8)} reached at the fault), lost ${lost}, doubled ${doubled}, recovered in ${recovered} s`,
  );
  expect({ lost, doubled }).toEqual({ lost: 0, doubled: 0 });
  expect(check).toEqual({
    members,
    even_members: members,
    entries: contacts / 2 + entering,
    exits: leaving,
    repeated: 0,
  });
  // Nothing left to change and nothing more announced.
  const again = await stack.api.post(`/segments/${segmentId}/compute`, sk);
  expect(again.body).toEqual({ added: 0, removed: 0, total: members });
}
