import { z } from 'zod';

/** A yes/no query parameter (`?subscribed=true`): a boolean, or undefined when it is absent. */
export const optionalBooleanQuery = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true'));
