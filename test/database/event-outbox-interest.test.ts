import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  insertWorkflow,
  replaceWorkflowGraph,
  updateWorkflowRow,
  type WorkflowRow,
} from '../../db/sql/workflows.sql.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';

// An event enters the automation outbox only when something of its project can use it: an
// enabled workflow it triggers, a workflow graph (of any version) that waits for its name, or an
// enabled webhook endpoint that asked for it. Each rule is shown with its near miss.

const { sql } = databasePool({ max: 2 });

async function project(): Promise<{ projectId: string; contactId: string }> {
  const { projectId, ids } = await seedProjectRows(sql, { name: 'outbox-interest', contacts: 1 });
  return { projectId, contactId: ids[0] as string };
}

/** Records one event per name (in one statement) and answers the names that entered the outbox. */
async function outboxedNames(
  { projectId, contactId }: { projectId: string; contactId: string },
  events: { name: string; data?: Record<string, unknown> }[],
): Promise<string[]> {
  const ids = events.map(() => randomUUID());
  await sql.query(
    `INSERT INTO events (id, project_id, contact_id, name, data, created_at)
     SELECT e.id, $1, $2, e.name, e.data, now()
       FROM unnest($3::uuid[], $4::text[], $5::jsonb[]) AS e(id, name, data)`,
    [
      projectId,
      contactId,
      ids,
      events.map((e) => e.name),
      events.map((e) => JSON.stringify(e.data ?? {})),
    ],
  );
  const rows = await sql.query<{ name: string }>(
    'SELECT name FROM event_outbox WHERE event_id = ANY($1::uuid[]) ORDER BY name',
    [ids],
  );
  return rows.map((r) => r.name);
}

async function workflow(
  projectId: string,
  trigger: Pick<WorkflowRow, 'trigger_type' | 'trigger_event' | 'trigger_segment_id'> & {
    enabled: boolean;
  },
): Promise<string> {
  const id = randomUUID();
  const row = await insertWorkflow(sql, {
    id,
    project_id: projectId,
    name: `wf ${id}`,
    description: null,
    trigger_event: trigger.trigger_event,
    allow_reentry: false,
  });
  await updateWorkflowRow(sql, { ...row, ...trigger });
  return id;
}

const storeGraph = (workflowId: string, waitEvents: string[]) =>
  replaceWorkflowGraph(sql, {
    workflowId,
    graphId: randomUUID(),
    graph: { steps: [], transitions: [] },
    waitEvents,
  });

async function endpoint(projectId: string, eventTypes: string[], enabled: boolean) {
  await sql.query(
    `INSERT INTO webhook_endpoints (id, project_id, url, event_types, secret, enabled)
     VALUES ($1, $2, 'http://127.0.0.1:9/hook', $3, 'sealed', $4)`,
    [randomUUID(), projectId, eventTypes, enabled],
  );
}

describe('the automation outbox takes only the events something can use', () => {
  it('takes nothing in a project with no workflow and no endpoint', async () => {
    const p = await project();
    expect(await outboxedNames(p, [{ name: 'page_viewed' }, { name: 'email.sent' }])).toEqual([]);
  });

  it("takes an enabled workflow's trigger event, not a disabled one's", async () => {
    const p = await project();
    const event = { trigger_type: 'EVENT' as const, trigger_segment_id: null };
    await workflow(p.projectId, { ...event, trigger_event: 'signup', enabled: true });
    await workflow(p.projectId, { ...event, trigger_event: 'churned', enabled: false });
    expect(
      await outboxedNames(p, [{ name: 'signup' }, { name: 'churned' }, { name: 'other' }]),
    ).toEqual(['signup']);
  });

  it("takes a segment entry by the segment's trigger key, not another segment's", async () => {
    const p = await project();
    const segmentId = randomUUID();
    await workflow(p.projectId, {
      trigger_type: 'SEGMENT_ENTRY',
      trigger_event: null,
      trigger_segment_id: segmentId,
      enabled: true,
    });
    expect(
      await outboxedNames(p, [
        { name: 'segment.buyers.entry', data: { segmentId } },
        { name: 'segment.others.entry', data: { segmentId: randomUUID() } },
      ]),
    ).toEqual(['segment.buyers.entry']);
  });

  it('takes what any stored graph waits for, on a disabled workflow and after a newer graph', async () => {
    const p = await project();
    const id = await workflow(p.projectId, {
      trigger_type: 'MANUAL',
      trigger_event: null,
      trigger_segment_id: null,
      enabled: false,
    });
    await storeGraph(id, ['purchase']);
    expect(await outboxedNames(p, [{ name: 'purchase' }, { name: 'refund' }])).toEqual([
      'purchase',
    ]);
    // A newer graph no longer waits for it: an execution may still run the older one.
    await storeGraph(id, ['refund']);
    expect(await outboxedNames(p, [{ name: 'purchase' }, { name: 'refund' }])).toEqual([
      'purchase',
      'refund',
    ]);
    // Gone with its workflow.
    await sql.query('DELETE FROM workflows WHERE id = $1', [id]);
    expect(await outboxedNames(p, [{ name: 'purchase' }, { name: 'refund' }])).toEqual([]);
  });

  it('takes what an enabled endpoint asked for, not what a disabled one did', async () => {
    const p = await project();
    await endpoint(p.projectId, ['email.sent', 'purchase'], true);
    await endpoint(p.projectId, ['email.opened'], false);
    expect(
      await outboxedNames(p, [
        { name: 'email.sent' },
        { name: 'purchase' },
        { name: 'email.opened' },
        { name: 'email.clicked' },
      ]),
    ).toEqual(['email.sent', 'purchase']);
  });

  it("never takes another project's interest", async () => {
    const mine = await project();
    const theirs = await project();
    await endpoint(theirs.projectId, ['purchase'], true);
    const event = { trigger_type: 'EVENT' as const, trigger_segment_id: null, enabled: true };
    await workflow(theirs.projectId, { ...event, trigger_event: 'signup' });
    expect(await outboxedNames(mine, [{ name: 'purchase' }, { name: 'signup' }])).toEqual([]);
    expect(await outboxedNames(theirs, [{ name: 'purchase' }, { name: 'signup' }])).toEqual([
      'purchase',
      'signup',
    ]);
  });
});
