import type { SqlFragment } from '../../domain/segments/filter/compile-sql.pure.js';
import type { Sql } from './sql.js';

/** Where a compute starts, and stands once its last batch is done. */
export const FIRST_ID = '00000000-0000-0000-0000-000000000000';
export const LAST_ID = 'ffffffff-ffff-ffff-ffff-ffffffffffff';

export interface SegmentComputeRow {
  run_id: string;
  segment_id: string;
  after_contact_id: string;
  done: boolean;
  added: number;
  removed: number;
}

/**
 * The progress of compute `runId`, begun now when it is new. Finished computes of the same
 * segment are forgotten: their results were answered.
 */
export async function beginCompute(
  sql: Sql,
  { runId, segmentId }: { runId: string; segmentId: string },
): Promise<SegmentComputeRow> {
  return sql.transaction(async (tx) => {
    await tx.query('DELETE FROM segment_computes WHERE segment_id = $1 AND done AND run_id <> $2', [
      segmentId,
      runId,
    ]);
    await tx.query(
      `INSERT INTO segment_computes (run_id, segment_id, created_at) VALUES ($1, $2, now())
       ON CONFLICT (run_id) DO NOTHING`,
      [runId, segmentId],
    );
    const [row] = await tx.query<SegmentComputeRow>(
      'SELECT run_id, segment_id, after_contact_id, done, added, removed FROM segment_computes WHERE run_id = $1',
      [runId],
    );
    return row as SegmentComputeRow;
  });
}

/** The id of the `size`-th contact of the project after `afterId`: where a batch ends. */
export async function batchEnd(
  sql: Sql,
  { projectId, afterId, size }: { projectId: string; afterId: string; size: number },
): Promise<string | undefined> {
  const [row] = await sql.query<{ id: string }>(
    `SELECT id FROM contacts WHERE project_id = $1 AND id > $2 ORDER BY id OFFSET $3 LIMIT 1`,
    [projectId, afterId, size - 1],
  );
  return row?.id;
}

/**
 * One batch of a compute: for the contacts with ids in (afterId, upto] (to the end when `upto`
 * is null), the members that `where` no longer matches leave and those it matches join, each
 * change recording its entry or exit event; the compute's progress moves to `upto` (LAST_ID at
 * the end) with the counts. Answers false, changing nothing, when the progress no longer stands
 * at `afterId` (another attempt moved it). Runs as one transaction.
 */
export async function computeBatch(
  sql: Sql,
  {
    runId,
    projectId,
    segmentId,
    where,
    afterId,
    upto,
    entryEvent,
    exitEvent,
    eventData,
  }: {
    runId: string;
    projectId: string;
    segmentId: string;
    where: SqlFragment;
    afterId: string;
    upto: string | null;
    entryEvent: string;
    exitEvent: string;
    eventData: Record<string, unknown>;
  },
): Promise<boolean> {
  const n = where.params.length;
  const p = (i: number): string => `$${n + i}`;
  return sql.transaction(async (tx) => {
    // The compute's row, locked: a second attempt waits here, then finds the progress moved.
    const [progress] = await tx.query<{ after_contact_id: string; done: boolean }>(
      'SELECT after_contact_id, done FROM segment_computes WHERE run_id = $1 FOR UPDATE',
      [runId],
    );
    if (!progress || progress.done || progress.after_contact_id !== afterId) return false;
    await tx.query(
      `WITH target AS (
         SELECT c.id FROM contacts c
          WHERE c.project_id = ${p(2)} AND c.id > ${p(4)}::uuid
            AND (${p(5)}::uuid IS NULL OR c.id <= ${p(5)}::uuid) AND ${where.text}),
       joined AS (
         INSERT INTO segment_members (segment_id, contact_id, created_at)
         SELECT ${p(3)}, id, now() FROM target
         ON CONFLICT (segment_id, contact_id) DO NOTHING
         RETURNING contact_id),
       left_ AS (
         DELETE FROM segment_members m
          WHERE m.segment_id = ${p(3)} AND m.contact_id > ${p(4)}::uuid
            AND (${p(5)}::uuid IS NULL OR m.contact_id <= ${p(5)}::uuid)
            AND NOT EXISTS (SELECT 1 FROM target t WHERE t.id = m.contact_id)
          RETURNING m.contact_id),
       recorded AS (
         INSERT INTO events (id, project_id, contact_id, name, data, created_at)
         SELECT uuid_generate_v7(now()), ${p(2)}, contact_id, ${p(6)}, ${p(8)}::jsonb, now() FROM joined
         UNION ALL
         SELECT uuid_generate_v7(now()), ${p(2)}, contact_id, ${p(7)}, ${p(8)}::jsonb, now() FROM left_)
       UPDATE segment_computes
          SET after_contact_id = coalesce(${p(5)}::uuid, '${LAST_ID}'),
              added = added + (SELECT count(*) FROM joined),
              removed = removed + (SELECT count(*) FROM left_)
        WHERE run_id = ${p(1)}`,
      [
        ...where.params,
        runId,
        projectId,
        segmentId,
        afterId,
        upto,
        entryEvent,
        exitEvent,
        JSON.stringify(eventData),
      ],
    );
    return true;
  });
}

/** Marks a compute done and answers its counts and the segment's members now. */
export async function finishCompute(
  sql: Sql,
  { runId, segmentId }: { runId: string; segmentId: string },
): Promise<{ added: number; removed: number; total: number }> {
  const [row] = await sql.query<{ added: number; removed: number; total: number }>(
    `WITH done AS (
       UPDATE segment_computes SET done = true WHERE run_id = $1 RETURNING added, removed),
     total AS (SELECT count(*)::int AS n FROM segment_members WHERE segment_id = $2),
     counted AS (
       UPDATE segments SET member_count = (SELECT n FROM total), member_count_at = now()
        WHERE id = $2)
     SELECT d.added, d.removed, t.n AS total FROM done d, total t`,
    [runId, segmentId],
  );
  return row ?? { added: 0, removed: 0, total: 0 };
}

/** Every tracked dynamic segment, on every project (the recompute schedule's list). */
export async function listTrackedSegments(sql: Sql): Promise<{ id: string; project_id: string }[]> {
  return sql.query<{ id: string; project_id: string }>(
    `SELECT id, project_id FROM segments WHERE track_membership AND type = 'DYNAMIC' ORDER BY id`,
  );
}
