import type { Context } from 'koa';
import { validationError } from '../../domain/shared/errors.js';

const PRINTABLE_ASCII = /^[\x20-\x7E]{1,255}$/;

/** The Idempotency-Key header, when sent: 1-255 printable ASCII characters. */
export function idempotencyKeyOf(ctx: Context): string | undefined {
  const key = ctx.get('Idempotency-Key');
  if (key === '') return undefined;
  if (!PRINTABLE_ASCII.test(key)) {
    throw validationError({
      field: 'Idempotency-Key',
      message: 'Use 1-255 printable ASCII characters',
      code: 'invalid_string',
    });
  }
  return key;
}
