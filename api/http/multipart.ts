import busboy from 'busboy';
import type { Context } from 'koa';
import { DomainError, validationError } from '../../domain/shared/errors.js';
import { isStorableText } from '../../domain/shared/storable-text.pure.js';

export interface UploadedFile {
  filename: string;
  mimeType: string;
  content: Buffer;
}

const tooLarge = (maxBytes: number): DomainError =>
  new DomainError('PAYLOAD_TOO_LARGE', `The file is larger than ${maxBytes} bytes`, {
    suggestion: 'Split the file into smaller ones.',
  });

const badUpload = (message: string): DomainError =>
  new DomainError('BAD_REQUEST', message, {
    suggestion: 'Send the whole multipart/form-data body again.',
  });

const missing = (field: string, message: string): DomainError =>
  validationError({ field, message, code: 'required' });

const unstorable = (field: string): DomainError =>
  validationError({
    field,
    message: 'Text may not contain NUL characters or unpaired surrogates',
    code: 'invalid_string',
  });

/** Text fields beside the file are small: a route reads at most a few options from them. */
const FIELD_LIMITS = { fields: 20, fieldSize: 64 * 1024, parts: 25 };

/**
 * Reads one file field of a multipart body as it streams in, refusing it as soon as it passes
 * `maxBytes` (nothing beyond the limit is buffered). Every way a body can go wrong (cut short, a
 * bad boundary, a client that goes away, an empty file, a second file) settles the promise once
 * with an error in the envelope; no stream is left without an 'error' listener, so none can
 * become an uncaught exception. Nothing is written anywhere before the whole file has arrived.
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
  const request = ctx.req;
  return new Promise((resolve, reject) => {
    let settled = false;
    let parser: busboy.Busboy | undefined;
    const settle = (outcome: { error: Error } | { file: UploadedFile }): void => {
      if (settled) return;
      settled = true;
      if (parser) request.unpipe(parser);
      // Whatever the client still sends is read and dropped, so the answer can be written.
      if (!request.complete) request.resume();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.file);
    };
    const fail = (error: Error): void => settle({ error });

    request.once('error', () => fail(badUpload('The upload was interrupted')));
    request.once('close', () => {
      if (!request.complete) fail(badUpload('The upload was interrupted before it ended'));
    });
    try {
      // busboy stops a file when it reaches its limit; one byte of room tells a file of exactly
      // `maxBytes` (accepted) from a larger one (refused).
      parser = busboy({
        headers: request.headers,
        limits: { ...FIELD_LIMITS, fileSize: maxBytes + 1, files: 1 },
      });
    } catch {
      fail(badUpload('The multipart body has no valid boundary'));
      return;
    }

    let found: UploadedFile | undefined;
    let failure: Error | undefined;
    parser.on('file', (name, stream, info) => {
      stream.on('error', () => fail(badUpload('The upload ended in the middle of the file')));
      if (name !== field) {
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on('limit', () => {
        failure ??= tooLarge(maxBytes);
        stream.resume();
      });
      stream.on('end', () => {
        if (size > maxBytes) failure ??= tooLarge(maxBytes);
        else if (size === 0) failure ??= badUpload(`The file in "${field}" is empty`);
        else
          found = {
            filename: info.filename ?? 'upload',
            mimeType: info.mimeType,
            content: Buffer.concat(chunks),
          };
      });
    });
    parser.on('field', (name, value) => {
      if (!isStorableText(name)) failure ??= unstorable(name.toWellFormed());
      else if (!isStorableText(value)) failure ??= unstorable(name);
    });
    parser.on('filesLimit', () => {
      failure ??= badUpload(`Send one file, in "${field}"`);
    });
    parser.on('fieldsLimit', () => {
      failure ??= badUpload('The multipart body has too many fields');
    });
    parser.on('partsLimit', () => {
      failure ??= badUpload('The multipart body has too many parts');
    });
    parser.on('error', () => fail(badUpload('The multipart body is malformed or cut short')));
    parser.on('close', () => {
      if (failure) fail(failure);
      else if (!found) fail(missing(field, `No file in the "${field}" field`));
      else settle({ file: found });
    });
    request.pipe(parser);
  });
}
