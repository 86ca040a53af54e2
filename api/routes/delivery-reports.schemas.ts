import { z } from 'zod';
import { REPORT_FORMATS, REPORT_OUTCOMES } from '../../domain/inbound/report-reading.pure.js';
import { cursorQuery } from '../http/pagination.js';

export const listDeliveryReportsQuery = cursorQuery.extend({
  outcome: z.enum(REPORT_OUTCOMES).optional(),
});

export const deliveryReportParams = z.object({ id: z.uuid() });

export const deliveryReportView = z.object({
  id: z.uuid(),
  emailId: z
    .uuid()
    .nullable()
    .meta({ description: 'The email its return path names; null when it names none of ours' }),
  emailTo: z.string().nullable().meta({ description: "That email's recipient" }),
  recipient: z.string().meta({ description: 'The return-path address the report was sent to' }),
  format: z.enum(REPORT_FORMATS),
  outcome: z.enum(REPORT_OUTCOMES),
  reason: z.string().nullable().meta({ description: 'Why, for all outcomes but applied' }),
  storageKey: z.string().meta({ description: 'The raw message under DATA_DIR' }),
  rawUrl: z.string().meta({ description: 'GET it for the raw message (message/rfc822)' }),
  createdAt: z.string(),
});

export const deliveryReportPage = z.object({
  data: z.array(deliveryReportView),
  cursor: z.string().nullable(),
  hasMore: z.boolean(),
  total: z.number().int().describe('On the first page only (0 after)'),
});
