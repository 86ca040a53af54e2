import type { ResponseOf } from '../api/types';

export type Suppression = ResponseOf<'/suppressions', 'get'>['data'][number];
export type SuppressionReason = Suppression['reason'];

/** Each reason as people read it; the filter offers them in this order. */
export const REASON_LABELS: Record<SuppressionReason, string> = {
  hard_bounce: 'Hard bounce',
  complaint: 'Complaint',
  soft_bounce: 'Soft bounces',
};

export const REASON_COLORS: Record<SuppressionReason, string> = {
  hard_bounce: 'var(--color-danger)',
  complaint: 'var(--color-warn)',
  soft_bounce: 'var(--color-muted)',
};

export const isReason = (value: string): value is SuppressionReason => value in REASON_LABELS;

// Where the bounce or complaint was learnt (docs/api.md); null for entries older than sources.
const SOURCE_LABELS: Record<string, string> = {
  relay: 'SMTP relay',
  dsn: 'Bounce report (DSN)',
  arf: 'Complaint report (ARF)',
  ses: 'Amazon SES',
  webhook: 'Delivery webhook',
};

export const sourceLabel = (source: string | null): string =>
  source === null ? 'Not recorded' : (SOURCE_LABELS[source] ?? source);

/**
 * The evidence kept with an entry: the SMTP code, the enhanced status and the words, and the
 * delivery report they were read from (reports that reached the return path).
 */
export interface Evidence {
  code?: string;
  status?: string;
  diagnostic?: string;
  reportId?: string;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== ''
    ? value.trim()
    : typeof value === 'number'
      ? String(value)
      : undefined;

export function evidenceOf(detail: Suppression['detail']): Evidence {
  if (!detail) return {};
  return {
    code: text(detail.code),
    status: text(detail.status),
    diagnostic: text(detail.diagnostic),
    reportId: text(detail.reportId),
  };
}
