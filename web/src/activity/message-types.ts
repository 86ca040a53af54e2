import type { ResponseOf } from '../api/types';

export type Message = ResponseOf<'/emails/{id}', 'get'>;
export type MessageStatus = Message['status'];

const TIMESTAMP_LABELS: Record<keyof Message['timestamps'], string> = {
  queuedAt: 'Queued',
  sentAt: 'Sent',
  deliveredAt: 'Delivered',
  openedAt: 'First opened',
  clickedAt: 'First clicked',
  bouncedAt: 'Bounced',
  complainedAt: 'Complained',
  unsubscribedAt: 'Unsubscribed',
};

/** The moments the email reached, in the order they happened. */
export function reachedMoments(timestamps: Message['timestamps']): { label: string; at: string }[] {
  return (Object.keys(TIMESTAMP_LABELS) as (keyof Message['timestamps'])[])
    .flatMap((key) => {
      const at = timestamps[key];
      return at ? [{ label: TIMESTAMP_LABELS[key], at }] : [];
    })
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

export const STATUS_TONE: Record<MessageStatus, string> = {
  QUEUED: 'text-muted',
  SENT: 'text-ok',
  DELIVERED: 'text-ok',
  BOUNCED: 'text-danger',
  FAILED: 'text-danger',
  SUPPRESSED: 'text-warn',
  CANCELLED: 'text-warn',
};

/** A short line about an event's data: the link clicked, the bounce's kind, an error. */
export function eventDetail(data: Record<string, unknown>): string | undefined {
  for (const key of ['link', 'bounceType', 'error', 'reason']) {
    const value = data[key];
    if (typeof value === 'string' && value) return key === 'bounceType' ? `${value} bounce` : value;
  }
  return undefined;
}

/**
 * The delivery report a bounce or complaint was read from (a DSN or feedback report that came
 * back to the email's return path), when it was: its id, for a link to the report's page.
 */
export function reportIdOf(data: Record<string, unknown>): string | undefined {
  const value = data.reportId;
  return typeof value === 'string' && value ? value : undefined;
}
