import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../helpers/factories.js';
import { keepHistory } from '../helpers/histories.js';
import { waitForJob } from '../helpers/jobs.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

async function contacts(sk: { key: string }, n: number, subscribed = true): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    ids.push(
      (
        await stack.api.post('/contacts', {
          ...sk,
          body: { email: uniqueEmail('bulk'), subscribed },
        })
      ).body.id,
    );
  }
  return ids;
}

describe('bulk jobs', () => {
  it('unsubscribes and subscribes, emitting one event per flip, with counts', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const ids = await contacts(sk, 4);
    await stack.api.patch(`/contacts/${ids[0]}`, { ...sk, body: { subscribed: false } });

    const res = await stack.api.post('/contacts/bulk-unsubscribe', {
      ...sk,
      body: { contactIds: [...ids, randomUUID()] },
    });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ jobId: expect.any(String), status: 'QUEUED' });
    const job = await waitForJob(stack.api, `/contacts/bulk/${res.body.jobId}`, project.secretKey);
    expect(job).toMatchObject({
      type: 'BULK_UNSUBSCRIBE',
      status: 'COMPLETED',
      progress: { processed: 5, total: 5 },
      result: { created: 0, updated: 3, skipped: 2, failed: 0, errors: [] },
    });
    for (const id of ids)
      expect((await stack.api.get(`/contacts/${id}`, sk)).body.subscribed).toBe(false);
    expect((await stack.api.get('/events?event=contact.unsubscribed', sk)).body.total).toBe(4); // 1 by PATCH, 3 by the job

    const back = await stack.api.post('/contacts/bulk-subscribe', {
      ...sk,
      body: { contactIds: ids.slice(0, 2) },
    });
    const done = await waitForJob(
      stack.api,
      `/contacts/bulk/${back.body.jobId}`,
      project.secretKey,
    );
    expect(done.result).toMatchObject({ updated: 2, skipped: 0 });
    expect((await stack.api.get('/events?event=contact.subscribed', sk)).body.total).toBe(2);
    await keepHistory('contact-job', `job-${back.body.jobId}`);
  });

  it('deletes contacts, leaving other projects alone', async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const mine = await contacts(a.sk, 3);
    const theirs = await contacts(b.sk, 1);
    const res = await stack.api.post('/contacts/bulk-delete', {
      ...a.sk,
      body: { contactIds: [...mine, ...theirs] },
    });
    const job = await waitForJob(
      stack.api,
      `/contacts/bulk/${res.body.jobId}`,
      a.project.secretKey,
    );
    expect(job.result).toMatchObject({ deleted: 3, skipped: 1 });
    expect((await stack.api.get('/contacts', a.sk)).body.total).toBe(0);
    expect((await stack.api.get(`/contacts/${theirs[0]}`, b.sk)).status).toBe(200);
    expect((await stack.api.get(`/contacts/bulk/${res.body.jobId}`, b.sk)).status).toBe(404);
  });

  it('takes 1,000 ids and refuses 1,001', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const ids = Array.from({ length: 1000 }, () => randomUUID());
    const ok = await stack.api.post('/contacts/bulk-subscribe', {
      ...sk,
      body: { contactIds: ids },
    });
    expect(ok.status).toBe(202);
    const job = await waitForJob(stack.api, `/contacts/bulk/${ok.body.jobId}`, project.secretKey);
    expect(job.result).toMatchObject({ updated: 0, skipped: 1000 });
    for (const path of [
      '/contacts/bulk-subscribe',
      '/contacts/bulk-unsubscribe',
      '/contacts/bulk-delete',
    ]) {
      const res = await stack.api.post(path, {
        ...sk,
        body: { contactIds: [...ids, randomUUID()] },
      });
      expect(res.status, path).toBe(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'contactIds', code: 'too_big' });
    }
    expect(
      (await stack.api.post('/contacts/bulk-delete', { ...sk, body: { contactIds: [] } })).status,
    ).toBe(422);
    expect(
      (
        await stack.api.post('/contacts/bulk-delete', {
          ...sk,
          body: { contactIds: ['not-a-uuid'] },
        })
      ).status,
    ).toBe(422);
  });
});

describe('events routes', () => {
  it('lists, counts, names, and deletes events by name', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const email = uniqueEmail();
    for (const event of ['viewed', 'viewed', 'viewed', 'purchased']) {
      await stack.api.post('/v1/track', {
        key: project.publicKey,
        body: { email, event, data: { n: 1 } },
      });
    }
    const other = uniqueEmail();
    await stack.api.post('/v1/track', {
      key: project.publicKey,
      body: { email: other, event: 'viewed' },
    });

    const page = await stack.api.get('/events?limit=2', sk);
    expect(page.body).toMatchObject({ total: 5, hasMore: true });
    expect(page.body.data[0]).toMatchObject({ name: 'viewed', contactEmail: other });
    const next = await stack.api.get(`/events?limit=2&cursor=${page.body.cursor}`, sk);
    expect(next.body.total).toBe(0);
    expect(next.body.data.map((e: { id: string }) => e.id)).not.toContain(page.body.data[0].id);

    const stats = (await stack.api.get('/events/stats', sk)).body;
    expect(stats).toMatchObject({
      total: 5,
      last24Hours: 5,
      last7Days: 5,
      uniqueNames: 2,
      uniqueContacts30Days: 2,
    });
    expect(stats.topEvents).toEqual([
      { name: 'viewed', count: 4 },
      { name: 'purchased', count: 1 },
    ]);

    const names = (await stack.api.get('/events/names', sk)).body.names;
    expect(names.map((n: { name: string; count: number }) => [n.name, n.count])).toEqual([
      ['purchased', 1],
      ['viewed', 4],
    ]);
    expect((await stack.api.get('/events/viewed/usage', sk)).body).toEqual({
      event: 'viewed',
      segments: [],
      workflows: [],
      campaigns: [],
    });

    const removed = await stack.api.delete('/events/viewed', sk);
    expect(removed.body).toEqual({ event: 'viewed', deleted: 4 });
    expect((await stack.api.get('/events', sk)).body.total).toBe(1);
  });

  it("keeps one project's events from another", async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    await stack.api.post('/v1/track', {
      key: a.project.publicKey,
      body: { email: uniqueEmail(), event: 'secret' },
    });
    expect((await stack.api.get('/events', b.sk)).body.total).toBe(0);
    expect((await stack.api.get('/events/names', b.sk)).body.names).toEqual([]);
    expect((await stack.api.delete('/events/secret', b.sk)).body.deleted).toBe(0);
    expect((await stack.api.get('/events', a.sk)).body.total).toBe(1);
  });
});
