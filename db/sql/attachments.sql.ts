import type { AttachmentDisposition } from '../../domain/sending/attachment-disposition.pure.js';
import type { Sql } from './sql.js';

export interface AttachmentRow {
  filename: string;
  content_type: string;
  content_id: string | null;
  disposition: AttachmentDisposition;
  content: Buffer;
}

/** Stores attachments sent once for every recipient of a request; `content` is base64. */
export async function insertAttachments(
  sql: Sql,
  {
    projectId,
    attachments,
  }: {
    projectId: string;
    attachments: (Omit<AttachmentRow, 'content'> & { id: string; content: string })[];
  },
): Promise<void> {
  for (const a of attachments) {
    await sql.query(
      `INSERT INTO attachments (id, project_id, filename, content_type, content_id, disposition, content)
       VALUES ($1, $2, $3, $4, $5, $6, decode($7, 'base64'))`,
      [a.id, projectId, a.filename, a.content_type, a.content_id, a.disposition, a.content],
    );
  }
}

/** The attachments of an email, in the order they were stored (ids are time-ordered). */
export async function findAttachments(
  sql: Sql,
  { ids }: { ids: string[] },
): Promise<AttachmentRow[]> {
  return sql.query<AttachmentRow>(
    'SELECT filename, content_type, content_id, disposition, content FROM attachments WHERE id = ANY($1::uuid[]) ORDER BY id',
    [ids],
  );
}
