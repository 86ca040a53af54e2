import { randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { Sql } from '../../db/sql/sql.js';
import { findUploadContentType, insertUpload } from '../../db/sql/uploads.sql.js';
import { notFound, validationError } from '../shared/errors.js';

export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;
const IMAGE_TYPES = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/gif', 'gif'],
  ['image/webp', 'webp'],
]);
const KEY = /^[0-9a-f-]{36}\.(jpg|png|gif|webp)$/;

/** Where uploads are kept and served from. */
export interface UploadSettings {
  sql: Sql;
  dataDir: string;
  publicUrl: string;
}

export interface UploadView {
  url: string;
  key: string;
  contentType: string;
  size: number;
}

/** The type comes from the file's first bytes, never from its name or the declared type. */
export async function storeImage({
  sql,
  projectId,
  content,
  dataDir,
  publicUrl,
}: UploadSettings & {
  projectId: string;
  content: Buffer;
}): Promise<UploadView> {
  const detected = await fileTypeFromBuffer(content);
  const extension = detected ? IMAGE_TYPES.get(detected.mime) : undefined;
  if (!detected || !extension) {
    throw validationError({
      field: 'image',
      message: 'Upload a JPEG, PNG, GIF or WebP image',
      code: 'invalid_image',
    });
  }
  const key = `${randomUUID()}.${extension}`;
  const dir = path.join(dataDir, 'uploads');
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, key), content);
  await insertUpload(sql, { key, projectId, contentType: detected.mime, size: content.length });
  return {
    url: `${publicUrl}/uploads/${key}`,
    key,
    contentType: detected.mime,
    size: content.length,
  };
}

export async function readImage({
  sql,
  key,
  dataDir,
}: Pick<UploadSettings, 'sql' | 'dataDir'> & {
  key: string;
}): Promise<{ content: Buffer; contentType: string }> {
  if (!KEY.test(key)) throw notFound('File');
  const contentType = await findUploadContentType(sql, { key });
  if (!contentType) throw notFound('File');
  const content = await readFile(path.join(dataDir, 'uploads', key)).catch(() => {
    throw notFound('File');
  });
  return { content, contentType };
}
