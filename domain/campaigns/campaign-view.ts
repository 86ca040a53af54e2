import type { CampaignRow } from '../../db/sql/campaigns.sql.js';
import type { TrackingKind } from '../tracking/tracking-choice.pure.js';
import type { AudienceType, CampaignStatus } from './campaign-status.pure.js';

// The campaign as the API shows it.

export interface CampaignView {
  id: string;
  name: string;
  description: string | null;
  subject: string;
  body: string;
  from: string;
  fromName: string | null;
  replyTo: string | null;
  templateId: string | null;
  /** The audience type (the spec's create response names it `type`). */
  type: AudienceType;
  audienceType: AudienceType;
  segmentId: string | null;
  audienceFilter: Record<string, unknown> | null;
  /** Its own setting; null where the template's, then the project's decides. */
  tracking: Record<TrackingKind, boolean | null>;
  status: CampaignStatus;
  scheduledAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  cancelledAt: string | null;
  error: string | null;
  createdAt: string;
  updatedAt: string;
}

const iso = (d: Date | null): string | null => (d ? new Date(d).toISOString() : null);

export function toCampaignView(row: CampaignRow): CampaignView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    subject: row.subject,
    body: row.body,
    from: row.from_address,
    fromName: row.from_name,
    replyTo: row.reply_to,
    templateId: row.template_id,
    type: row.audience_type,
    audienceType: row.audience_type,
    segmentId: row.segment_id,
    audienceFilter: row.audience_filter,
    tracking: { opens: row.open_tracking, clicks: row.click_tracking },
    status: row.status,
    scheduledAt: iso(row.scheduled_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    cancelledAt: iso(row.cancelled_at),
    error: row.error,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
