import { findColumn } from './rows.js';
import type { Sql } from './sql.js';

export async function insertUpload(
  sql: Sql,
  {
    key,
    projectId,
    contentType,
    size,
  }: { key: string; projectId: string; contentType: string; size: number },
): Promise<void> {
  await sql.query(
    'INSERT INTO uploads (key, project_id, content_type, size) VALUES ($1, $2, $3, $4)',
    [key, projectId, contentType, size],
  );
}

export async function findUploadContentType(
  sql: Sql,
  { key }: { key: string },
): Promise<string | undefined> {
  return findColumn<string>(sql, { table: 'uploads', column: 'content_type', key: 'key' }, key);
}
