import { campaignsReferencing } from '../../db/sql/campaigns.sql.js';
import { segmentsReferencing } from '../../db/sql/segments.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { workflowsReferencing } from '../../db/sql/workflows.sql.js';
import type { CampaignStatus } from '../campaigns/campaign-status.pure.js';

/** What references a segment, a contact field or an event name. */
export interface Usage {
  segments: { id: string; name: string }[];
  campaigns: { id: string; name: string; status: CampaignStatus }[];
  workflows: { id: string; name: string; enabled: boolean }[];
}

/** What segment filters, campaign audiences and workflows may reference (a field by its key). */
export type Referenced = { segmentId: string } | { field: string } | { event: string };

/** The segments, campaigns and workflows of the project that reference one thing. */
export async function usageOf(sql: Sql, where: { projectId: string } & Referenced): Promise<Usage> {
  const [segments, campaigns, workflows] = await Promise.all([
    segmentsReferencing(sql, where),
    campaignsReferencing(sql, where),
    workflowsReferencing(sql, where),
  ]);
  return { segments, campaigns, workflows };
}
