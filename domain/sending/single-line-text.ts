import { z } from 'zod';

/** Text that goes into a mail header: at most `max` characters, CR and LF refused (injection). */
export const noLineBreaks = (max: number) =>
  z
    .string()
    .max(max)
    .refine((v) => !/[\r\n]/.test(v), {
      message: 'Line breaks are not allowed (header injection)',
      params: { code: 'crlf' },
    });
