import {
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  getCampaignStats,
  listCampaigns,
  measureAudience,
  replaceCampaign,
  sendCampaign,
  sendTestEmail,
} from '../../domain/campaigns/campaigns.service.js';
import { foldAudienceAlias } from '../../domain/campaigns/campaign-input.js';
import { defineRoute } from '../http/route.js';
import {
  audienceBody,
  audienceResult,
  campaignBody,
  campaignIdParams,
  campaignPage,
  campaignResult,
  campaignStatsResult,
  deletedCampaignResult,
  listCampaignsQuery,
  sendCampaignBody,
  testCampaignBody,
  testCampaignResult,
} from './campaigns.schemas.js';
import { projectIdOf } from './session-user.js';

export const campaignRoutes = () => [
  defineRoute({
    method: 'post',
    path: '/campaigns/audience',
    summary:
      'Measure an audience before sending: the contacts it matches and how many a send would reach (saves nothing)',
    tag: 'Campaigns',
    auth: 'project',
    body: audienceBody,
    response: audienceResult,
    handler: async ({ sql, auth, body }) => ({
      success: true as const,
      data: await measureAudience({
        sql,
        projectId: projectIdOf(auth),
        ...foldAudienceAlias(body),
      }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/campaigns',
    summary: 'Campaigns of the project, newest first (cursor; status filter)',
    tag: 'Campaigns',
    auth: 'project',
    query: listCampaignsQuery,
    response: campaignPage,
    handler: async ({ sql, auth, query }) => {
      const { data, ...rest } = await listCampaigns({
        sql,
        projectId: projectIdOf(auth),
        statuses: query.status,
        limit: query.limit,
        cursor: query.cursor,
      });
      return { success: true as const, data: { campaigns: data, ...rest } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaigns',
    summary:
      'Create a DRAFT campaign: audience ALL, SEGMENT (segmentId) or FILTERED (audienceFilter); from on a verified domain',
    tag: 'Campaigns',
    auth: 'project',
    body: campaignBody,
    status: 201,
    response: campaignResult,
    handler: async ({ sql, auth, body }) => ({
      success: true as const,
      data: await createCampaign({
        sql,
        projectId: projectIdOf(auth),
        input: foldAudienceAlias(body),
      }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/campaigns/:id',
    summary: 'One campaign',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    response: campaignResult,
    handler: async ({ sql, auth, params }) => ({
      success: true as const,
      data: await getCampaign({ sql, projectId: projectIdOf(auth), campaignId: params.id }),
    }),
  }),
  defineRoute({
    method: 'put',
    path: '/campaigns/:id',
    summary: 'Replace a DRAFT campaign (409 once it is scheduled or sent)',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    body: campaignBody,
    response: campaignResult,
    handler: async ({ sql, auth, params, body }) => ({
      success: true as const,
      data: await replaceCampaign({
        sql,
        projectId: projectIdOf(auth),
        campaignId: params.id,
        input: foldAudienceAlias(body),
      }),
    }),
  }),
  defineRoute({
    method: 'delete',
    path: '/campaigns/:id',
    summary: 'Delete a campaign (409 while SCHEDULED or SENDING: cancel it first)',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    response: deletedCampaignResult,
    handler: async ({ sql, auth, params }) => {
      await deleteCampaign({ sql, projectId: projectIdOf(auth), campaignId: params.id });
      return { success: true as const, data: { id: params.id, deleted: true as const } };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/campaigns/:id/duplicate',
    summary: 'A new DRAFT with the campaign’s content',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    status: 201,
    response: campaignResult,
    handler: async ({ sql, auth, params }) => ({
      success: true as const,
      data: await duplicateCampaign({ sql, projectId: projectIdOf(auth), campaignId: params.id }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/campaigns/:id/send',
    summary:
      'Send a DRAFT now (SENDING) or at scheduledFor (SCHEDULED); a second send is a 409, a time not in the future a 422',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    body: sendCampaignBody,
    response: campaignResult,
    handler: async ({ deps, auth, params, body }) => ({
      success: true as const,
      data: await sendCampaign({
        ...deps.campaigns,
        projectId: projectIdOf(auth),
        campaignId: params.id,
        scheduledFor: body.scheduledFor ? new Date(body.scheduledFor) : undefined,
      }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/campaigns/:id/cancel',
    summary: 'Cancel a SCHEDULED or SENDING campaign: emails not yet handed to SMTP are never sent',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    response: campaignResult,
    handler: async ({ deps, auth, params }) => ({
      success: true as const,
      data: await cancelCampaign({
        ...deps.campaigns,
        projectId: projectIdOf(auth),
        campaignId: params.id,
      }),
    }),
  }),
  defineRoute({
    method: 'post',
    path: '/campaigns/:id/test',
    summary: 'One test email to an address: [TEST] before the subject, no tracking, not counted',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    body: testCampaignBody,
    response: testCampaignResult,
    handler: async ({ deps, auth, params, body }) => ({
      success: true as const,
      data: await sendTestEmail({
        ...deps.campaigns,
        projectId: projectIdOf(auth),
        campaignId: params.id,
        email: body.email,
      }),
    }),
  }),
  defineRoute({
    method: 'get',
    path: '/campaigns/:id/stats',
    summary:
      'Recipients, sent, delivered, opened, clicked, bounced, complained, unsubscribed, failed, skipped, cancelled, and rates of sent',
    tag: 'Campaigns',
    auth: 'project',
    params: campaignIdParams,
    response: campaignStatsResult,
    handler: async ({ sql, auth, params }) => ({
      success: true as const,
      data: await getCampaignStats({ sql, projectId: projectIdOf(auth), campaignId: params.id }),
    }),
  }),
];
