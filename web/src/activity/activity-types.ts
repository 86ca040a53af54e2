import type { ResponseOf } from '../api/types';

export type ActivityItem = ResponseOf<'/activity', 'get'>['data'][number];
export type ActivityType = ActivityItem['type'];

export const ACTIVITY_LABELS: Record<ActivityType, string> = {
  sent: 'Sent',
  delivered: 'Delivered',
  opened: 'Opened',
  clicked: 'Clicked',
  bounced: 'Bounced',
  complained: 'Complained',
  inbound: 'Inbound',
};

/** One colour per kind of mail event, shared by the feed's badges and the analytics chart. */
export const ACTIVITY_COLORS: Record<ActivityType, string> = {
  sent: '#6366f1',
  delivered: '#0ea5e9',
  opened: '#10b981',
  clicked: '#f59e0b',
  bounced: '#ef4444',
  complained: '#a855f7',
  inbound: '#64748b',
};

export const isActivityType = (value: string): value is ActivityType => value in ACTIVITY_LABELS;
