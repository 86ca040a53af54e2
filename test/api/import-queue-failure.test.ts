import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withApiWithoutTemporal } from '../helpers/api-without-temporal.js';
import { waitForJob } from '../helpers/jobs.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

let stack: TestStack;
let db: pg.Client;
beforeAll(async () => {
  stack = await startStack();
  db = new pg.Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await stack?.stop();
});

// The uploaded file is stored as a binary parameter beside its job row (one statement), then the
// job's workflow starts: what is stored is the upload byte for byte, and a job Temporal cannot
// take is FAILED, with the caller told to retry.
describe('an import upload', () => {
  const csv = Buffer.from('email,first_name\nzoe@example.com,Zoë\nbob@example.com,"Bob, Jr."\n');

  it('is stored byte for byte with its job, and imported', async () => {
    const { sk, project } = await projectFixture(stack.api);
    const res = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: csv,
      key: sk.key,
    });
    expect(res.status, res.text).toBe(202);
    const stored = await db.query<{ content: Buffer; size: number; project_id: string }>(
      `SELECT f.content, f.size, j.project_id FROM job_files f JOIN jobs j ON j.id = f.job_id
        WHERE j.id = $1`,
      [res.body.jobId],
    );
    expect(stored.rows[0]?.project_id).toBe(project.id);
    expect(stored.rows[0]?.size).toBe(csv.length);
    expect(Buffer.compare(stored.rows[0]?.content as Buffer, csv)).toBe(0);
    const job = await waitForJob(stack.api, `/contacts/import/${res.body.jobId}`, sk.key);
    expect(job).toMatchObject({ status: 'COMPLETED', result: { created: 2, failed: 0 } });
  });

  it('answers 503 and leaves its job FAILED when Temporal cannot be reached', async () => {
    const { sk, project } = await projectFixture(stack.api);
    await withApiWithoutTemporal(stack, async (cut) => {
      const res = await cut.upload('/contacts/import', {
        field: 'file',
        content: csv,
        key: sk.key,
      });
      expect(res.status, res.text).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    });
    const jobs = await db.query<{ status: string; result: { errors: unknown[] } }>(
      'SELECT status, result FROM jobs WHERE project_id = $1',
      [project.id],
    );
    expect(jobs.rows).toEqual([
      {
        status: 'FAILED',
        result: expect.objectContaining({
          errors: [{ row: 0, message: 'The job could not be queued' }],
        }),
      },
    ]);
  }, 120_000);
});
