import { validationError } from '../../domain/shared/errors.js';
import { findTooDeep, MAX_BODY_DEPTH } from '../../domain/shared/json-depth.pure.js';
import {
  cleanStorableText,
  findUnstorableTexts,
  type UnstorableTextMode,
} from '../../domain/shared/storable-text.pure.js';

/** A request's parsed input, before its schemas. */
export interface RequestInput {
  params: unknown;
  query: unknown;
  body: unknown;
}

const VALUE_MESSAGE = 'Text cannot contain NUL (\\u0000) or an unpaired UTF-16 surrogate';
const KEY_MESSAGE = 'A key cannot contain NUL (\\u0000) or an unpaired UTF-16 surrogate';

/**
 * The text PostgreSQL cannot store, refused once for every route: a 422 naming each string or key
 * that holds a NUL or a lone surrogate (paths as zod's, query and params prefixed as
 * parseOrThrow does). A provider's callback (`clean`) is kept instead, cleaned.
 */
export function storableInput(input: RequestInput, mode: UnstorableTextMode): RequestInput {
  if (mode === 'clean') return cleanStorableText(input);
  const errors = [
    ...findUnstorableTexts(input.params, 'params'),
    ...findUnstorableTexts(input.query, 'query'),
    ...findUnstorableTexts(input.body, ''),
  ].map(({ path, inKey }) => ({
    field: path || '(root)',
    message: inKey ? KEY_MESSAGE : VALUE_MESSAGE,
    code: 'invalid_string',
  }));
  if (errors.length > 0) throw validationError(errors);
  return input;
}

/** A JSON body nested deeper than MAX_BODY_DEPTH: a 422 naming where, before any work. */
export function refuseTooDeepBody(body: unknown): void {
  const path = findTooDeep(body, MAX_BODY_DEPTH);
  if (path !== undefined)
    throw validationError({
      field: path || '(root)',
      message: `Objects and arrays nest ${MAX_BODY_DEPTH} deep at most`,
      code: 'too_deep',
    });
}
