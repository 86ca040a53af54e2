import { findSendContexts, type SendContext } from '../../db/sql/queue-email.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { createGroupCommit } from '../shared/group-commit.js';

/** What a transactional send of a project reads before it writes (its template, if it names one). */
export type SendContextRead = (args: {
  projectId: string;
  templateId?: string;
}) => Promise<SendContext>;

/**
 * The API's reads of send contexts: concurrent sends of a project share one statement
 * (createGroupCommit without distinctBy). A read waits only while one of its project is in
 * flight, and its answer comes from a statement begun after it was asked, so a template edited
 * or a domain verified before the send came is what the send sees. One per API process.
 */
export function createSendContexts({
  sql,
  maxBatch,
}: {
  sql: Sql;
  maxBatch?: number;
}): SendContextRead {
  const read = createGroupCommit<string | null, SendContext>({
    maxBatch,
    write: (projectId, templateIds) =>
      findSendContexts(sql, { projectId, templateIds, capCategory: 'transactional' }),
  });
  return ({ projectId, templateId }) => read(projectId, templateId ?? null);
}
