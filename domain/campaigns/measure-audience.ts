import { measureAudienceRows } from '../../db/sql/campaign-audience.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { validationError } from '../shared/errors.js';
import type { AudienceInput } from './campaign-input.js';
import { audienceOf } from './campaign-send.service.js';
import { audienceProblems } from './campaign-rules.js';

/**
 * An audience as the composer shows it before sending: the contacts it matches now and how many
 * of them a send would reach (not unsubscribed, not suppressed), counted as the snapshot would.
 */
export async function measureAudience({
  sql,
  projectId,
  audienceType,
  segmentId,
  audienceFilter,
  filterField,
}: AudienceInput & {
  sql: Sql;
  projectId: string;
}): Promise<{ matching: number; reachable: number; skipped: number }> {
  const problems = await audienceProblems({
    sql,
    projectId,
    input: { name: '', audienceType, segmentId, audienceFilter, filterField },
  });
  if (problems.length > 0) throw validationError(problems);
  const audience = await audienceOf(sql, {
    projectId,
    audienceType,
    segmentId: segmentId ?? null,
    filter: audienceFilter ?? null,
  });
  const { matching, reachable } = await measureAudienceRows(sql, { projectId, audience });
  return { matching, reachable, skipped: matching - reachable };
}
