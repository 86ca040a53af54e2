import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForJob } from '../helpers/jobs.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

const MAX = 5 * 1024 * 1024;
let stack: TestStack;
beforeAll(async () => {
  stack = await startStack({ env: { IMPORT_BATCH_SIZE: '200' } });
});
afterAll(async () => {
  await stack?.stop();
});

interface Expected {
  csv: string;
  created: number;
  updated: number;
  failed: number;
  badRows: number[];
  distinct: Set<string>;
}

/** Rows with extra columns, some malformed rows and some duplicates, and the counts they must give. */
function buildCsv(
  rows: number,
  { existing = new Set<string>() }: { existing?: Set<string> } = {},
): Expected {
  const lines = ['email,first_name,plan,subscribed,notes,extra_1,extra_2'];
  const badRows: number[] = [];
  const distinct = new Set<string>(existing);
  let created = 0;
  let updated = 0;
  for (let i = 0; i < rows; i += 1) {
    const row = i + 2; // the header is row 1
    if (i % 997 === 13) {
      lines.push(`not-an-email-${i},Ann,pro,true,,,`);
      badRows.push(row);
      continue;
    }
    if (i % 1499 === 7) {
      lines.push(`short-${i}@import.test,too,few`);
      badRows.push(row);
      continue;
    }
    if (i % 2503 === 11) {
      lines.push(`maybe-${i}@import.test,Bo,pro,maybe,,,`);
      badRows.push(row);
      continue;
    }
    // Every 400th row repeats an earlier address.
    const n = i % 400 === 399 ? i - 200 : i;
    const email = `user-${n}@import.test`;
    lines.push(
      `${email},Name ${i},${i % 2 ? 'pro' : 'free'},${i % 10 ? 'true' : 'false'},"note, with comma ${i}",x${i},`,
    );
    if (distinct.has(email)) updated += 1;
    else {
      distinct.add(email);
      created += 1;
    }
  }
  return {
    csv: `${lines.join('\n')}\n`,
    created,
    updated,
    failed: badRows.length,
    badRows,
    distinct,
  };
}

describe('CSV import', () => {
  it('imports 10,000 rows with exact created / updated / failed counts', async () => {
    const { project, sk } = await projectFixture(stack.api);
    // Three of the file's addresses exist already.
    const existing = new Set(['user-1@import.test', 'user-2@import.test', 'user-3@import.test']);
    for (const email of existing)
      await stack.api.post('/contacts', { ...sk, body: { email, data: { kept: 'yes' } } });
    const expected = buildCsv(10_000);
    const withExisting = buildCsv(10_000, { existing });
    expect(withExisting.created).toBe(expected.created - 3);

    const res = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: expected.csv,
      key: project.secretKey,
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body.jobId).toMatch(/^[0-9a-f-]{36}$/);
    const job = await waitForJob(
      stack.api,
      `/contacts/import/${res.body.jobId}`,
      project.secretKey,
    );
    expect(job).toMatchObject({
      id: res.body.jobId,
      type: 'IMPORT',
      status: 'COMPLETED',
      progress: { processed: 10_000, total: 10_000 },
      result: {
        created: withExisting.created,
        updated: withExisting.updated,
        failed: withExisting.failed,
        skipped: 0,
      },
    });
    expect(job.result.errors.map((e: { row: number }) => e.row)).toEqual(withExisting.badRows);
    expect(job.finishedAt).not.toBeNull();

    const all = await stack.api.get('/contacts?limit=1', sk);
    expect(all.body.total).toBe(withExisting.distinct.size);
    const one = (
      await stack.api.post('/contacts/lookup', { ...sk, body: { emails: ['user-1@import.test'] } })
    ).body.found[0];
    const contact = (await stack.api.get(`/contacts/${one.id}`, sk)).body;
    // Columns became data (kept strings), earlier data survived, `email`/`subscribed` did not become data.
    expect(contact.data).toEqual({
      kept: 'yes',
      first_name: 'Name 1',
      plan: 'pro',
      notes: 'note, with comma 1',
      extra_1: 'x1',
    });
    expect(contact.subscribed).toBe(true);
    const unsubscribed = (
      await stack.api.post('/contacts/lookup', { ...sk, body: { emails: ['user-10@import.test'] } })
    ).body.found[0];
    expect((await stack.api.get(`/contacts/${unsubscribed.id}`, sk)).body.subscribed).toBe(false);
  });

  it('accepts a 5 MB file and refuses one byte more with 413, creating no job', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const header = 'email,pad\n';
    const row = (i: number) => `edge-${i}@import.test,${'x'.repeat(80)}\n`;
    let csv = header;
    let i = 0;
    while (csv.length + row(i).length <= MAX) csv += row(i++);
    csv += 'x'.repeat(MAX - csv.length); // fills the last bytes with one bad row
    expect(Buffer.byteLength(csv)).toBe(MAX);

    const ok = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: csv,
      key: project.secretKey,
    });
    expect(ok.status, ok.text).toBe(202);
    const job = await waitForJob(stack.api, `/contacts/import/${ok.body.jobId}`, project.secretKey);
    expect(job.result).toMatchObject({ created: i, failed: 1 });

    const tooBig = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: `${csv}y`,
      key: project.secretKey,
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect((await stack.api.get('/contacts?limit=1', sk)).body.total).toBe(i);
  });

  it('refuses a request without the file field, and a file without an email column fails its rows', async () => {
    const { project } = await projectFixture(stack.api);
    const wrongField = await stack.api.upload('/contacts/import', {
      field: 'csv',
      content: 'email\na@b.co\n',
      key: project.secretKey,
    });
    expect(wrongField.status).toBe(422);
    expect(wrongField.body.error.errors[0].field).toBe('file');
    const json = await stack.api.post('/contacts/import', {
      key: project.secretKey,
      body: { file: 'x' },
    });
    expect(json.status).toBe(422);

    const noEmail = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: 'name,plan\nAnn,pro\nBo,free\n',
      key: project.secretKey,
    });
    expect(noEmail.status).toBe(202);
    const job = await waitForJob(
      stack.api,
      `/contacts/import/${noEmail.body.jobId}`,
      project.secretKey,
    );
    expect(job).toMatchObject({
      status: 'COMPLETED',
      result: {
        created: 0,
        failed: 2,
        errors: [{ row: 1, message: expect.stringContaining('email') }],
      },
    });
  });

  it('finishes an import whose worker was killed midway, each valid row imported once', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const expected = buildCsv(30_000);
    const res = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: expected.csv,
      key: project.secretKey,
    });
    expect(res.status).toBe(202);
    const path = `/contacts/import/${res.body.jobId}`;
    const midway = await waitForJob(stack.api, path, project.secretKey, {
      until: (job) => job.progress.processed >= 2_000,
    });
    expect(midway.status).toBe('RUNNING');
    expect(midway.progress.processed).toBeLessThan(30_000);

    await stack.stopWorker('SIGKILL');
    const stalled = (await stack.api.get(path, sk)).body.progress.processed;
    await stack.startWorker();

    const job = await waitForJob(stack.api, path, project.secretKey, { timeoutMs: 120_000 });
    expect(stalled).toBeLessThan(30_000);
    expect(job).toMatchObject({
      status: 'COMPLETED',
      progress: { processed: 30_000, total: 30_000 },
      result: { created: expected.created, updated: expected.updated, failed: expected.failed },
    });
    expect((await stack.api.get('/contacts?limit=1', sk)).body.total).toBe(expected.distinct.size);
  }, 180_000);

  it("gives 404 for another project's job", async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const res = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: 'email\nx@y.co\n',
      key: a.project.secretKey,
    });
    expect((await stack.api.get(`/contacts/import/${res.body.jobId}`, b.sk)).status).toBe(404);
    expect((await stack.api.get(`/contacts/bulk/${res.body.jobId}`, a.sk)).status).toBe(404);
  });
});
