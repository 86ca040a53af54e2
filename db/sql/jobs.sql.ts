import type { JobResult } from '../../domain/jobs/job-result.pure.js';
import type { JobStatus } from '../../domain/jobs/job-status.pure.js';
import type { JobType } from '../../domain/jobs/job-type.pure.js';
import type { Sql } from './sql.js';

export interface JobRow {
  id: string;
  project_id: string;
  type: JobType;
  status: JobStatus;
  input: { contactIds?: string[] } & Record<string, unknown>;
  processed: number;
  total: number | null;
  result: JobResult;
}

/**
 * A new QUEUED import job and its uploaded file, in one statement. The file goes as a binary
 * parameter: through the ORM it went inlined as a hex literal (10 MB of statement text for a 5 MB
 * file), which PostgreSQL took about three times as long to parse and store (300 ms against 100,
 * measured).
 */
export async function insertImportJob(
  sql: Sql,
  {
    id,
    projectId,
    input,
    result,
    filename,
    content,
  }: {
    id: string;
    projectId: string;
    input: Record<string, unknown>;
    result: JobResult;
    filename: string;
    content: Buffer;
  },
): Promise<void> {
  await sql.query(
    `WITH job AS (
       INSERT INTO jobs (id, project_id, type, status, input, processed, result, created_at)
       VALUES ($1, $2, 'IMPORT', 'QUEUED', $3::jsonb, 0, $4::jsonb, now())
       RETURNING id)
     INSERT INTO job_files (job_id, filename, content, size)
     SELECT id, $5, $6, $7 FROM job`,
    [
      id,
      projectId,
      JSON.stringify(input),
      JSON.stringify(result),
      filename,
      content,
      content.length,
    ],
  );
}

/** QUEUED becomes RUNNING (once), and the job is answered in whatever status it is. */
export async function startJob(
  sql: Sql,
  { jobId }: { jobId: JobRow['id'] },
): Promise<JobRow | undefined> {
  const [row] = await sql.query<JobRow>(
    `WITH started AS (
       UPDATE jobs SET status = 'RUNNING', started_at = now()
        WHERE id = $1 AND status = 'QUEUED'
        RETURNING id, project_id, type, status, input, processed, total, result)
     SELECT * FROM started
     UNION ALL
     SELECT id, project_id, type, status, input, processed, total, result FROM jobs
      WHERE id = $1 AND NOT EXISTS (SELECT 1 FROM started)`,
    [jobId],
  );
  return row;
}

/**
 * The job's file in slices of `sliceBytes`, read as the caller goes: its reading starts on the
 * first slice rather than the whole file. A file stored compressed (before uploads were stored
 * as they came) is read whole: a slice of it would decompress all before it. Undefined when the
 * job has no file.
 */
export async function readJobFile(
  sql: Sql,
  { jobId, sliceBytes }: { jobId: string; sliceBytes: number },
): Promise<AsyncIterable<Buffer> | undefined> {
  const [file] = await sql.query<{ size: number; compressed: boolean }>(
    `SELECT octet_length(content) AS size, pg_column_compression(content) IS NOT NULL AS compressed
       FROM job_files WHERE job_id = $1`,
    [jobId],
  );
  if (!file) return undefined;
  const slice = file.compressed ? Math.max(file.size, 1) : sliceBytes;
  return (async function* () {
    for (let at = 0; at < file.size; at += slice) {
      const [part] = await sql.query<{ bytes: Buffer }>(
        'SELECT substring(content from $2 for $3) AS bytes FROM job_files WHERE job_id = $1',
        [jobId, at + 1, slice],
      );
      if (!part) throw new Error(`The file of job ${jobId} went while it was read`);
      yield part.bytes;
    }
  })();
}

export async function setJobTotal(
  sql: Sql,
  { jobId, total }: { jobId: string; total: number },
): Promise<void> {
  await sql.query('UPDATE jobs SET total = $2 WHERE id = $1', [jobId, total]);
}

/** RUNNING becomes COMPLETED, with the final progress and counts when given. */
export async function completeJob(
  sql: Sql,
  { jobId, processed, result }: { jobId: string; processed?: number; result?: JobResult },
): Promise<void> {
  await sql.query(
    `UPDATE jobs SET status = 'COMPLETED', finished_at = now(),
            processed = coalesce($2, processed), result = coalesce($3::jsonb, result)
      WHERE id = $1 AND status = 'RUNNING'`,
    [jobId, processed ?? null, result ? JSON.stringify(result) : null],
  );
}

/** An unfinished job becomes FAILED; `message` joins its errors (as row 0), counts are kept. */
export async function failJob(
  sql: Sql,
  { jobId, message }: { jobId: string; message: string },
): Promise<void> {
  await sql.query(
    `UPDATE jobs SET status = 'FAILED', finished_at = now(),
            result = jsonb_set(result, '{errors}', (result -> 'errors') || jsonb_build_array(jsonb_build_object('row', 0, 'message', $2::text)))
      WHERE id = $1 AND status IN ('QUEUED', 'RUNNING')`,
    [jobId, message],
  );
}
