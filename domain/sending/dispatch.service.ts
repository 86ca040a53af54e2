import type { Sql } from '../../db/sql/sql.js';
import type { WorkflowEngine } from '../shared/ports.js';

/**
 * Starts the send-email workflows of committed emails and marks them dispatched. Starts are
 * idempotent (`email-<id>`), so dispatching an email twice never sends it twice.
 */
export async function dispatchEmails({
  sql,
  engine,
  emails,
}: {
  sql: Sql;
  engine: WorkflowEngine;
  emails: { emailId: string; projectId: string }[];
}): Promise<number> {
  const started: string[] = [];
  await Promise.all(
    emails.map(async (email) => {
      try {
        await engine.startSendEmail(email);
        started.push(email.emailId);
      } catch {
        // Left undispatched: the dispatcher schedule tries again.
      }
    }),
  );
  if (started.length > 0) {
    await sql.query(
      'UPDATE emails SET dispatched_at = now() WHERE id = ANY($1::uuid[]) AND dispatched_at IS NULL',
      [started],
    );
  }
  return started.length;
}

/** Run by the `email-dispatch` schedule: queued emails whose workflow never started. */
export async function dispatchStaleEmails({
  sql,
  engine,
  olderThanSeconds = 10,
  limit = 1000,
}: {
  sql: Sql;
  engine: WorkflowEngine;
  olderThanSeconds?: number;
  limit?: number;
}): Promise<{ found: number; dispatched: number }> {
  const rows = await sql.query<{ id: string; project_id: string }>(
    `SELECT id, project_id FROM emails
      WHERE status = 'QUEUED' AND dispatched_at IS NULL AND created_at < now() - make_interval(secs => $1)
      ORDER BY created_at LIMIT $2`,
    [olderThanSeconds, limit],
  );
  const dispatched = await dispatchEmails({
    sql,
    engine,
    emails: rows.map((r) => ({ emailId: r.id, projectId: r.project_id })),
  });
  return { found: rows.length, dispatched };
}
