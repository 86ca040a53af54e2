import { z } from 'zod';
import {
  activityStats,
  activityTypes,
  listActivity,
  recentActivityCount,
  upcomingActivity,
} from '../../domain/insights/activity.service.js';
import { ACTIVITY_TYPES, CAMPAIGN_METRICS } from '../../domain/insights/activity-type.pure.js';
import {
  campaignStatsBreakdown,
  timeseries,
  topCampaigns,
  topEvents,
} from '../../domain/insights/analytics.service.js';
import { getMessage, MESSAGE_EVENTS_MAX } from '../../domain/insights/message.service.js';
import { defineRoute } from '../http/route.js';
import { cursorList } from './contacts.schemas.js';
import {
  activityItemView,
  activityQuery,
  activityStatsView,
  campaignFiguresView,
  limitQuery,
  messageIdParams,
  messageView,
  recentCountQuery,
  timeseriesQuery,
  timeseriesView,
  topCampaignsQuery,
  topEventsQuery,
  upcomingView,
  windowQuery,
} from './insights.schemas.js';
import { projectIdOf } from './session-user.js';

export const insightRoutes = () => [
  defineRoute({
    method: 'get',
    path: '/activity',
    summary:
      'One feed, newest first, across sends, deliveries, opens, clicks, bounces, complaints and inbound mail',
    tag: 'Activity',
    auth: 'project',
    query: activityQuery,
    response: cursorList(activityItemView),
    handler: async ({ sql, auth, query }) =>
      listActivity({
        sql,
        projectId: projectIdOf(auth),
        types: query.type,
        from: query.from,
        to: query.to,
        contactId: query.contactId,
        campaignId: query.campaignId,
        limit: query.limit,
        cursor: query.cursor,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/activity/stats',
    summary: 'Counts per activity type in a window (default: the last 30 days)',
    tag: 'Activity',
    auth: 'project',
    query: windowQuery,
    response: activityStatsView,
    handler: async ({ sql, auth, query }) =>
      activityStats({ sql, projectId: projectIdOf(auth), from: query.from, to: query.to }),
  }),
  defineRoute({
    method: 'get',
    path: '/activity/recent-count',
    summary: 'Activity items in the last `minutes` (1-1440, default 60)',
    tag: 'Activity',
    auth: 'project',
    query: recentCountQuery,
    response: z.object({ minutes: z.number().int(), count: z.number().int() }),
    handler: async ({ sql, auth, query }) =>
      recentActivityCount({ sql, projectId: projectIdOf(auth), minutes: query.minutes }),
  }),
  defineRoute({
    method: 'get',
    path: '/activity/types',
    summary: 'The activity types the project has items of',
    tag: 'Activity',
    auth: 'project',
    response: z.object({ types: z.array(z.enum(ACTIVITY_TYPES)) }),
    handler: async ({ sql, auth }) => ({
      types: await activityTypes({ sql, projectId: projectIdOf(auth) }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/activity/upcoming',
    summary: 'Scheduled campaigns with their time, and waiting executions with their next wake-up',
    tag: 'Activity',
    auth: 'project',
    query: limitQuery(20),
    response: upcomingView,
    handler: async ({ sql, auth, query }) =>
      upcomingActivity({ sql, projectId: projectIdOf(auth), limit: query.limit }),
  }),
  defineRoute({
    method: 'get',
    path: '/emails/:id',
    summary: `One email: recipient, sender, status, source, timestamps, rendered body and its first ${MESSAGE_EVENTS_MAX} events`,
    tag: 'Activity',
    auth: 'project',
    params: messageIdParams,
    response: messageView,
    handler: async ({ sql, auth, params }) =>
      getMessage({ sql, projectId: projectIdOf(auth), emailId: params.id }),
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/timeseries',
    summary:
      'Sent, delivered, opened, clicked, bounced and complained per hour, day or week (UTC), empty buckets as zeros',
    tag: 'Analytics',
    auth: 'project',
    query: timeseriesQuery,
    response: timeseriesView,
    handler: async ({ sql, auth, query }) =>
      timeseries({
        sql,
        projectId: projectIdOf(auth),
        granularity: query.granularity,
        from: query.from,
        to: query.to,
      }),
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/top-campaigns',
    summary: `Campaigns that sent mail, best first by ${CAMPAIGN_METRICS.join(' | ')}`,
    tag: 'Analytics',
    auth: 'project',
    query: topCampaignsQuery,
    response: z.object({
      metric: z.enum(CAMPAIGN_METRICS),
      campaigns: z.array(campaignFiguresView),
    }),
    handler: async ({ sql, auth, query }) =>
      topCampaigns({ sql, projectId: projectIdOf(auth), metric: query.metric, limit: query.limit }),
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/campaign-stats',
    summary: 'Every campaign that began sending, newest first, with its figures and rates',
    tag: 'Analytics',
    auth: 'project',
    query: limitQuery(20),
    response: z.object({ campaigns: z.array(campaignFiguresView) }),
    handler: async ({ sql, auth, query }) =>
      campaignStatsBreakdown({ sql, projectId: projectIdOf(auth), limit: query.limit }),
  }),
  defineRoute({
    method: 'get',
    path: '/analytics/top-events',
    summary: "The most frequent events the project tracked (not the service's own) in a window",
    tag: 'Analytics',
    auth: 'project',
    query: topEventsQuery,
    response: z.object({
      from: z.string(),
      to: z.string(),
      events: z.array(z.object({ name: z.string(), count: z.number().int() })),
    }),
    handler: async ({ sql, auth, query }) =>
      topEvents({
        sql,
        projectId: projectIdOf(auth),
        limit: query.limit,
        from: query.from,
        to: query.to,
      }),
  }),
];
