import busboy from 'busboy';
import type { Context } from 'koa';
import { DomainError, validationError } from '../../domain/shared/errors.js';

export interface UploadedFile {
  filename: string;
  mimeType: string;
  content: Buffer;
}

const tooLarge = (maxBytes: number): DomainError =>
  new DomainError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`, {
    suggestion: 'Split the file into smaller ones.',
  });

const missing = (field: string, message: string): DomainError =>
  validationError({ field, message, code: 'required' });

/**
 * Reads one file field of a multipart body as it streams in, refusing it as soon as it passes
 * `maxBytes` (nothing beyond the limit is buffered).
 */
export function readUploadedFile(
  ctx: Context,
  { field, maxBytes }: { field: string; maxBytes: number },
): Promise<UploadedFile> {
  if (!ctx.is('multipart/form-data')) {
    return Promise.reject(
      missing(field, `Send a multipart/form-data body with the file in "${field}"`),
    );
  }
  if (Number(ctx.get('Content-Length') || 0) > maxBytes + 64 * 1024)
    return Promise.reject(tooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      // busboy stops a file when it reaches its limit; one byte of room tells a file of exactly
      // `maxBytes` (accepted) from a larger one (refused).
      parser = busboy({
        headers: ctx.req.headers,
        limits: { fileSize: maxBytes + 1, files: 1, fields: 20 },
      });
    } catch {
      reject(missing(field, 'The multipart body cannot be read'));
      return;
    }
    let found: UploadedFile | undefined;
    let failure: Error | undefined;
    parser.on('file', (name, stream, info) => {
      if (name !== field) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('limit', () => {
        failure = tooLarge(maxBytes);
        stream.resume();
      });
      stream.on('end', () => {
        if (chunks.reduce((n, c) => n + c.length, 0) > maxBytes) failure = tooLarge(maxBytes);
        if (!failure)
          found = {
            filename: info.filename ?? 'upload',
            mimeType: info.mimeType,
            content: Buffer.concat(chunks),
          };
      });
    });
    parser.on('error', () =>
      reject(new DomainError('BAD_REQUEST', 'The multipart body is malformed')),
    );
    parser.on('close', () => {
      if (failure) reject(failure);
      else if (!found) reject(missing(field, `No file in the "${field}" field`));
      else resolve(found);
    });
    ctx.req.pipe(parser);
  });
}
