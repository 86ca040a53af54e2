import { z } from 'zod';

/** Cursor lists (spec rule 1): limit 1..100, default 20, opaque cursor from the previous page. */
export const cursorQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().min(1).max(512).optional(),
});

/** Page lists (spec rule 4): page from 1, pageSize 1..100. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});
