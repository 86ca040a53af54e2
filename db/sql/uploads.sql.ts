import { findColumn } from './rows.js';
import type { Sql } from './sql.js';

/** An uploaded file's key in the store, and what is known of it. */
export interface NewUpload {
  key: string;
  projectId: string;
  contentType: string;
  size: number;
}

export async function insertUpload(sql: Sql, upload: NewUpload): Promise<void> {
  await sql.query(
    'INSERT INTO uploads (key, project_id, content_type, size) VALUES ($1, $2, $3, $4)',
    [upload.key, upload.projectId, upload.contentType, upload.size],
  );
}

export async function findUploadContentType(
  sql: Sql,
  { key }: { key: string },
): Promise<string | undefined> {
  return findColumn<string>(sql, { table: 'uploads', column: 'content_type', key: 'key' }, key);
}
