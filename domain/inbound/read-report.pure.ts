import { isAutoReply } from './auto-reply.pure.js';
import { readDeliveryStatus, readFeedbackReport } from './dsn.pure.js';
import { isDaemonSender, readPlainBounce } from './plain-bounce.pure.js';
import type { ReportReading } from './report-reading.pure.js';

const DSN_TYPES = ['message/delivery-status', 'message/global-delivery-status'];

/** A message, as the parser gives it, that came back to a return-path address. */
export interface ReturnedMessage {
  from?: string;
  subject: string;
  text: string;
  /** Lower-case names. */
  headers: { key: string; value: string }[];
  /** The non-text parts, decoded as text (the report parts among them). */
  parts: { mimeType: string; content: string }[];
}

/**
 * Reads a returned message: a DSN or a feedback report by its report part; then an automatic
 * reply (never counted), unless a mail system's daemon sent it; then a bounce written for people.
 */
export function readReport(message: ReturnedMessage): ReportReading {
  const dsn = message.parts.find((p) => DSN_TYPES.includes(p.mimeType.toLowerCase()));
  if (dsn) {
    const failures = readDeliveryStatus(dsn.content);
    return failures
      ? { format: 'dsn', failures }
      : { format: 'unknown', reason: 'The delivery-status part names no recipient' };
  }
  const arf = message.parts.find((p) => p.mimeType.toLowerCase() === 'message/feedback-report');
  if (arf) {
    const report = readFeedbackReport(arf.content);
    return report
      ? { format: 'arf', ...report }
      : { format: 'unknown', reason: 'The feedback report has no Feedback-Type' };
  }
  const daemon = isDaemonSender(message.from);
  if (!daemon && isAutoReply(message)) return { format: 'auto_reply' };
  const failures = readPlainBounce(message);
  if (failures) return { format: 'plain_bounce', failures };
  if (isAutoReply(message)) return { format: 'auto_reply' };
  return { format: 'unknown', reason: 'Neither a DSN, a feedback report nor a readable bounce' };
}
