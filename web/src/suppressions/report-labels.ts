import type { ResponseOf } from '../api/types';

export type DeliveryReport = ResponseOf<'/delivery-reports', 'get'>['data'][number];
export type ReportOutcome = DeliveryReport['outcome'];
export type ReportFormat = DeliveryReport['format'];

/** Each outcome as people read it; the filter offers them in this order. */
export const OUTCOME_LABELS: Record<ReportOutcome, string> = {
  applied: 'Applied',
  repeated: 'Repeated',
  ignored: 'Ignored',
  undetermined: 'Undetermined',
};

/** What each outcome did, in a sentence. */
export const OUTCOME_HELP: Record<ReportOutcome, string> = {
  applied: 'Read as a bounce or complaint of its email and applied.',
  repeated: 'Read, but its bounce or complaint was already applied: nothing more happened.',
  ignored: 'An automatic reply, or a report of no failure: it changes nothing.',
  undetermined: 'Could not be tied to its email or read: it changed nothing. Look at the message.',
};

export const OUTCOME_COLORS: Record<ReportOutcome, string> = {
  applied: 'var(--color-danger)',
  repeated: 'var(--color-muted)',
  ignored: 'var(--color-muted)',
  undetermined: 'var(--color-warn)',
};

export const isOutcome = (value: string): value is ReportOutcome => value in OUTCOME_LABELS;

export const FORMAT_LABELS: Record<ReportFormat, string> = {
  dsn: 'Bounce report (DSN)',
  arf: 'Complaint report (ARF)',
  plain_bounce: 'Bounce message',
  auto_reply: 'Automatic reply',
  unknown: 'Not a report',
};
