import type { AcceptedEmailStatus } from '../sending/email-status.pure.js';
import { countReachableAudience } from '../../db/sql/campaign-audience.sql.js';
import {
  cancelCampaignRows,
  markCampaignSent,
  unmarkCampaignSent,
  queueTestEmail,
} from '../../db/sql/campaign-send.sql.js';
import { capOf, requireCapRoom } from '../billing/billing.service.js';
import { audienceOf } from './campaign-send.service.js';
import type { Filter } from '../segments/filter/ast.pure.js';
import { conflict, unavailable, validationError } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { toCampaignView, type CampaignView } from './campaign-view.js';
import {
  audienceProblems,
  requireCampaign,
  requireSendingDomain,
  type CampaignDeps,
} from './campaign-rules.js';

// Sending: now or at a time, cancelling, and a test send to one address.

/**
 * Sends a DRAFT campaign now (SENDING) or at `scheduledFor` (SCHEDULED): the status moves with a
 * compare-and-set (a second call is a 409), committed before its `campaign-send` run starts;
 * a run that Temporal would not take puts the DRAFT back (503).
 */
export async function sendCampaign({
  sql,
  engine,
  projectId,
  campaignId,
  scheduledFor,
  now = new Date(),
}: Pick<CampaignDeps, 'sql' | 'engine'> & {
  projectId: string;
  campaignId: string;
  scheduledFor?: Date;
  now?: Date;
}): Promise<CampaignView> {
  const campaign = await requireCampaign(sql, projectId, campaignId);
  if (campaign.status !== 'DRAFT') {
    throw conflict(
      `The campaign is ${campaign.status}; only a DRAFT campaign is sent`,
      'Duplicate it to send it again.',
    );
  }
  if (scheduledFor && scheduledFor.getTime() <= now.getTime()) {
    throw validationError({
      field: 'scheduledFor',
      message: 'scheduledFor must be in the future',
      code: 'not_future',
    });
  }
  await requireSendingDomain(sql, projectId, campaign);
  const problems = await audienceProblems({
    sql,
    projectId,
    input: {
      name: campaign.name,
      audienceType: campaign.audience_type,
      segmentId: campaign.segment_id,
      audienceFilter: (campaign.audience_filter as Filter | null) ?? undefined,
      filterField: 'audienceFilter',
    },
  });
  if (problems.length > 0) throw validationError(problems);
  if ((await capOf({ sql, projectId, category: 'campaigns' })) !== undefined) {
    // Checked again, atomically, when the audience is snapshotted (it may grow meanwhile).
    const audience = await audienceOf(sql, {
      projectId,
      audienceType: campaign.audience_type,
      segmentId: campaign.segment_id,
      filter: campaign.audience_filter as Filter | null,
    });
    await requireCapRoom({
      sql,
      projectId,
      category: 'campaigns',
      count: await countReachableAudience(sql, { projectId, audience }),
    });
  }

  // Committed before the run starts, so the run always finds the campaign it is to send (a start
  // inside the transaction could run before the commit, find a DRAFT and end).
  const sent = await markCampaignSent(sql, {
    projectId,
    campaignId,
    scheduledAt: scheduledFor ?? null,
  });
  if (!sent) throw conflict('The campaign was sent meanwhile');
  try {
    await engine.startCampaignSend({
      input: {
        campaignId,
        projectId,
        scheduledFor: scheduledFor ? scheduledFor.toISOString() : null,
      },
      memo: { campaignName: campaign.name, audienceType: campaign.audience_type },
    });
  } catch {
    // Back to DRAFT unless a run already took it further; a run that did start after all finds
    // the DRAFT and ends, and the next send starts the campaign anew under the same id.
    await unmarkCampaignSent(sql, { projectId, campaignId });
    throw unavailable(
      'The send could not be started now',
      'Retry in a moment; the campaign is still a DRAFT.',
    );
  }
  return toCampaignView(sent);
}

/**
 * Cancels a SCHEDULED or SENDING campaign: in one transaction its status, its recipients not yet
 * queued and its emails not yet handed to SMTP; then its run is told to stop (when Temporal
 * cannot be told now, the run stops by itself on finding the campaign CANCELLED).
 */
export async function cancelCampaign({
  sql,
  engine,
  projectId,
  campaignId,
}: Pick<CampaignDeps, 'sql' | 'engine'> & {
  projectId: string;
  campaignId: string;
}): Promise<CampaignView> {
  const current = await requireCampaign(sql, projectId, campaignId);
  const cancelled = await cancelCampaignRows(sql, { projectId, campaignId });
  if (!cancelled) {
    throw conflict(
      `The campaign is ${current.status}; only a SCHEDULED or SENDING campaign is cancelled`,
    );
  }
  await engine.cancelCampaignSend({ campaignId }).catch(() => undefined); // see above
  return toCampaignView(await requireCampaign(sql, projectId, campaignId));
}

/**
 * One email of the campaign to `email`, with `[TEST]` before its subject, rendered with that
 * contact's data when the address is a contact: no tracking, not counted in the campaign.
 */
export async function sendTestEmail({
  sql,
  deliveryQueue,
  queueNotifier,
  projectId,
  campaignId,
  email,
}: Omit<CampaignDeps, 'engine'> & {
  projectId: string;
  campaignId: string;
  email: string;
}): Promise<{ emailId: string; email: string; status: AcceptedEmailStatus }> {
  const campaign = await requireCampaign(sql, projectId, campaignId);
  const domainId = await requireSendingDomain(sql, projectId, campaign);
  const to = email.toLowerCase();
  const queued = await queueTestEmail(sql, {
    id: newId(),
    projectId,
    domainId,
    campaign,
    to,
    deliveryQueue,
  });
  if (queued.status === 'QUEUED') queueNotifier.queued(deliveryQueue);
  return { emailId: queued.id, email: to, status: queued.status };
}
