import type { TimeUnit } from '../shared/time-unit.pure.js';

/** The kinds of item in the activity feed, each one stored event name. */
export const ACTIVITY_TYPES = [
  'sent',
  'delivered',
  'opened',
  'clicked',
  'bounced',
  'complained',
  'inbound',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** An email event's name: the names whose counts per project are kept (email_event_counts). */
export type EmailEventName = `email.${string}`;

export const ACTIVITY_EVENT: Record<ActivityType, EmailEventName> = {
  sent: 'email.sent',
  delivered: 'email.delivered',
  opened: 'email.opened',
  clicked: 'email.clicked',
  bounced: 'email.bounced',
  complained: 'email.complained',
  inbound: 'email.received',
};

const TYPE_OF_EVENT = new Map<string, ActivityType>(
  Object.entries(ACTIVITY_EVENT).map(([type, event]) => [event, type as ActivityType]),
);

export const activityTypeOfEvent = (name: string): ActivityType | undefined =>
  TYPE_OF_EVENT.get(name);

/** Buckets of the analytics time series (PostgreSQL's `date_trunc` field names). */
export const GRANULARITIES = ['hour', 'day', 'week'] as const;
export type Granularity = (typeof GRANULARITIES)[number];
/** The unit of the one time-unit vocabulary that each bucket spans. */
export const GRANULARITY_UNIT = {
  hour: 'hours',
  day: 'days',
  week: 'weeks',
} as const satisfies Record<Granularity, TimeUnit>;

/** The series of /analytics/timeseries: the activity types that mail goes through. */
export const SERIES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;

/** Metrics /analytics/top-campaigns ranks by. */
export const CAMPAIGN_METRICS = ['sent', 'openRate', 'clickRate'] as const;
export type CampaignMetric = (typeof CAMPAIGN_METRICS)[number];

/** The longest window an analytics query may span. */
export const MAX_WINDOW_DAYS = 366;
