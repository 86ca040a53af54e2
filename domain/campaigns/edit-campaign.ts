import {
  deleteIdleCampaign,
  insertCampaign,
  replaceDraftCampaign,
} from '../../db/sql/campaigns.sql.js';
import type { Filter } from '../segments/filter/ast.pure.js';
import { filterReferences } from '../segments/filter/references.pure.js';
import { conflict, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { toCampaignView, type CampaignView } from './campaign-view.js';
import type { CampaignInput } from './campaign-input.js';
import {
  notDraft,
  requireCampaign,
  settleContent,
  type CampaignInputScope,
  type CampaignRef,
} from './campaign-rules.js';

// Writing drafts: create, replace, duplicate, delete.

export async function createCampaign({
  sql,
  projectId,
  input,
}: CampaignInputScope): Promise<CampaignView> {
  const content = await settleContent({ sql, projectId, input });
  return toCampaignView(await insertCampaign(sql, { id: newId(), projectId, content }));
}

/** PUT: replaces a DRAFT campaign's content (409 once it was sent or scheduled). */
export async function replaceCampaign({
  sql,
  projectId,
  campaignId,
  input,
}: CampaignRef & { input: CampaignInput }): Promise<CampaignView> {
  const current = await requireCampaign(sql, projectId, campaignId);
  if (current.status !== 'DRAFT') throw notDraft(current.status);
  const content = await settleContent({ sql, projectId, input });
  const row = await replaceDraftCampaign(sql, { projectId, campaignId, content });
  if (!row) {
    const now = await requireCampaign(sql, projectId, campaignId);
    throw notDraft(now.status); // it was sent meanwhile
  }
  return toCampaignView(row);
}

/** A new DRAFT with the campaign's content, whatever state the original is in. */
export async function duplicateCampaign({
  sql,
  projectId,
  campaignId,
}: CampaignRef): Promise<CampaignView> {
  const source = await requireCampaign(sql, projectId, campaignId);
  const filter = source.audience_filter as Filter | null;
  const references = filter ? filterReferences(filter) : { fields: [], events: [], segments: [] };
  const row = await insertCampaign(sql, {
    id: newId(),
    projectId,
    content: {
      name: `${source.name} (copy)`.slice(0, 200),
      description: source.description,
      subject: source.subject,
      body: source.body,
      fromAddress: source.from_address,
      fromName: source.from_name,
      replyTo: source.reply_to,
      templateId: source.template_id,
      audienceType: source.audience_type,
      segmentId: source.segment_id,
      audienceFilter: filter,
      tracking: { opens: source.open_tracking, clicks: source.click_tracking },
      references,
    },
  });
  return toCampaignView(row);
}

/** Refused (409) while SCHEDULED or SENDING: its send is an active execution. */
export async function deleteCampaign({ sql, projectId, campaignId }: CampaignRef): Promise<void> {
  const { deleted, status } = await deleteIdleCampaign(sql, { projectId, campaignId });
  if (deleted) return;
  if (!status) throw notFound('Campaign');
  throw conflict(
    `The campaign is ${status}: its send is under way`,
    'Cancel it first (POST /campaigns/:id/cancel).',
  );
}
