import type { AcceptedEmailStatus } from '../sending/email-status.pure.js';
import {
  campaignStats as campaignStatsRows,
  countReachableAudience,
  cancelCampaignRows,
  countCampaigns,
  deleteIdleCampaign,
  findCampaign,
  findSenderDomainId,
  insertCampaign,
  listCampaignRows,
  markCampaignSent,
  queueTestEmail,
  replaceDraftCampaign,
  type CampaignContent,
  type CampaignEmailFigureCounts,
  type CampaignRow,
} from '../../db/sql/campaigns.sql.js';
import { findSendContext } from '../../db/sql/queue-email.sql.js';
import { requireCapRoom } from '../billing/billing.service.js';
import { audienceOf } from './campaign-send.service.js';
import {
  matchSenderDomain,
  senderHost,
  unverifiedSenderProblem,
} from '../domains/sender-domain.pure.js';
import { findSegment } from '../../db/sql/segments.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import type { Filter } from '../segments/filter/ast.pure.js';
import { filterReferences } from '../segments/filter/references.pure.js';
import { segmentDefinitions } from '../segments/segments.service.js';
import {
  conflict,
  DomainError,
  notFound,
  validationError,
  type FieldError,
} from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import { rate } from '../shared/rates.pure.js';
import { cursorPage, decodeCursor, type CursorPage } from '../shared/pagination.js';
import type { QueueNotifier, WorkflowEngine } from '../shared/ports.js';
import { templateProblems } from '../templates/template-engine.js';
import type { AudienceType, CampaignStatus } from './campaign-status.pure.js';

/** What the campaign use cases need: the pool, Temporal, and the queue this API's mail goes to. */
export interface CampaignDeps {
  sql: Sql;
  engine: WorkflowEngine;
  deliveryQueue: string;
  queueNotifier: QueueNotifier;
  /** Billing is on: a send must fit the project's monthly `campaigns` cap. */
  billingOn: boolean;
}

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

/** A campaign as create and PUT take it (already shaped by the route's schema). */
export interface CampaignInput {
  name: string;
  description?: string | null;
  subject?: string;
  body?: string;
  from?: string;
  fromName?: string | null;
  replyTo?: string | null;
  templateId?: string | null;
  audienceType: AudienceType;
  segmentId?: string | null;
  audienceFilter?: Filter;
  /** The body key the filter came in (`audienceFilter` or `audienceCondition`), for errors. */
  filterField: string;
}

/**
 * Checks a campaign's input against the project and settles its content: the template fills
 * what the body leaves out; `from` must be on a verified domain; the audience's segment (and any
 * segment its filter names) must exist. Every problem is a field error; nothing is written.
 */
async function settleContent({
  sql,
  projectId,
  input,
}: {
  sql: Sql;
  projectId: string;
  input: CampaignInput;
}): Promise<CampaignContent> {
  const { template, verifiedDomains } = await findSendContext(sql, {
    projectId,
    templateId: input.templateId ?? undefined,
  });
  const errors: FieldError[] = [];
  if (input.templateId && !template) {
    errors.push({
      field: 'templateId',
      message: 'This project has no such template',
      code: 'unknown_template',
    });
  }
  const subject = input.subject ?? template?.subject;
  const body = input.body ?? template?.body;
  const from = input.from ?? template?.from_address;
  for (const [field, value] of [
    ['subject', subject],
    ['body', body],
    ['from', from],
  ] as const) {
    if (value === undefined) {
      errors.push({ field, message: `${field} is required (or a templateId)`, code: 'required' });
    }
  }
  if (from !== undefined) {
    if (!matchSenderDomain(verifiedDomains, from)) errors.push(unverifiedSenderProblem(from));
  }
  if (subject !== undefined) errors.push(...templateProblems(subject, 'subject'));
  if (body !== undefined) errors.push(...templateProblems(body, 'body'));
  errors.push(...(await audienceProblems({ sql, projectId, input })));
  if (errors.length > 0) throw validationError(errors);

  const references =
    input.audienceType === 'FILTERED'
      ? filterReferences(input.audienceFilter)
      : { fields: [], events: [], segments: [] };
  return {
    name: input.name,
    description: input.description ?? null,
    subject: subject as string,
    body: body as string,
    fromAddress: from as string,
    fromName: input.fromName ?? template?.from_name ?? null,
    replyTo: input.replyTo ?? template?.reply_to ?? null,
    templateId: input.templateId ?? null,
    audienceType: input.audienceType,
    segmentId: input.audienceType === 'SEGMENT' ? (input.segmentId ?? null) : null,
    audienceFilter: input.audienceType === 'FILTERED' ? (input.audienceFilter ?? null) : null,
    references,
  };
}

async function audienceProblems({
  sql,
  projectId,
  input,
}: {
  sql: Sql;
  projectId: string;
  input: CampaignInput;
}): Promise<FieldError[]> {
  if (input.audienceType === 'SEGMENT') {
    if (!input.segmentId) {
      return [
        { field: 'segmentId', message: 'A SEGMENT audience names its segmentId', code: 'required' },
      ];
    }
    if (!(await findSegment(sql, { projectId, segmentId: input.segmentId }))) {
      return [
        {
          field: 'segmentId',
          message: 'This project has no such segment',
          code: 'unknown_segment',
        },
      ];
    }
  }
  if (input.audienceType === 'FILTERED') {
    if (!input.audienceFilter) {
      return [
        {
          field: 'audienceFilter',
          message: 'A FILTERED audience needs its audienceFilter (or audienceCondition)',
          code: 'required',
        },
      ];
    }
    const definitions = await segmentDefinitions(sql, { projectId, filter: input.audienceFilter });
    const missing = filterReferences(input.audienceFilter).segments.find(
      (id) => !definitions.has(id),
    );
    if (missing) {
      return [
        {
          field: input.filterField,
          message: `segment.${missing}: this project has no such segment`,
          code: 'unknown_segment',
        },
      ];
    }
  }
  return [];
}

async function requireCampaign(
  sql: Sql,
  projectId: string,
  campaignId: string,
): Promise<CampaignRow> {
  const row = await findCampaign(sql, { projectId, campaignId });
  if (!row) throw notFound('Campaign');
  return row;
}

const notDraft = (status: CampaignStatus) =>
  conflict(
    `The campaign is ${status}; only a DRAFT campaign changes`,
    'Duplicate it (POST /campaigns/:id/duplicate) to make a new draft from it.',
  );

export async function createCampaign({
  sql,
  projectId,
  input,
}: {
  sql: Sql;
  projectId: string;
  input: CampaignInput;
}): Promise<CampaignView> {
  const content = await settleContent({ sql, projectId, input });
  return toCampaignView(await insertCampaign(sql, { id: newId(), projectId, content }));
}

/** PUT: replaces a DRAFT campaign's content (409 once it was sent or scheduled). */
export async function replaceCampaign({
  sql,
  projectId,
  campaignId,
  input,
}: {
  sql: Sql;
  projectId: string;
  campaignId: string;
  input: CampaignInput;
}): Promise<CampaignView> {
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

export async function getCampaign({
  sql,
  projectId,
  campaignId,
}: {
  sql: Sql;
  projectId: string;
  campaignId: string;
}): Promise<CampaignView> {
  return toCampaignView(await requireCampaign(sql, projectId, campaignId));
}

export async function listCampaigns({
  sql,
  projectId,
  statuses,
  limit,
  cursor,
}: {
  sql: Sql;
  projectId: string;
  statuses?: CampaignStatus[];
  limit: number;
  cursor?: string;
}): Promise<CursorPage<CampaignView>> {
  const [rows, total] = await Promise.all([
    listCampaignRows(sql, {
      projectId,
      statuses,
      afterId: cursor ? decodeCursor(cursor).id : undefined,
      limit,
    }),
    cursor ? undefined : countCampaigns(sql, { projectId, statuses }),
  ]);
  return cursorPage({
    rows: rows.map(toCampaignView),
    limit,
    total,
    positionOf: (c) => ({ sort: c.id, id: c.id }),
  });
}

/** A new DRAFT with the campaign's content, whatever state the original is in. */
export async function duplicateCampaign({
  sql,
  projectId,
  campaignId,
}: {
  sql: Sql;
  projectId: string;
  campaignId: string;
}): Promise<CampaignView> {
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
      references,
    },
  });
  return toCampaignView(row);
}

/** Refused (409) while SCHEDULED or SENDING: its send is an active execution. */
export async function deleteCampaign({
  sql,
  projectId,
  campaignId,
}: {
  sql: Sql;
  projectId: string;
  campaignId: string;
}): Promise<void> {
  const { deleted, status } = await deleteIdleCampaign(sql, { projectId, campaignId });
  if (deleted) return;
  if (!status) throw notFound('Campaign');
  throw conflict(
    `The campaign is ${status}: its send is under way`,
    'Cancel it first (POST /campaigns/:id/cancel).',
  );
}

/** The sender's domain must still be verified when a send (or a test) begins. */
async function requireSendingDomain(
  sql: Sql,
  projectId: string,
  campaign: CampaignRow,
): Promise<string> {
  const domain = senderHost(campaign.from_address);
  const domainId = await findSenderDomainId(sql, { projectId, host: domain });
  if (!domainId) {
    throw validationError({
      field: 'from',
      message: `${domain} is no longer a verified domain of this project`,
      code: 'unverified_domain',
    });
  }
  return domainId;
}

/**
 * Sends a DRAFT campaign now (SENDING) or at `scheduledFor` (SCHEDULED): the status moves with a
 * compare-and-set (a second call is a 409) and its `campaign-send` run starts in the same
 * transaction, so a run that Temporal would not take leaves the campaign a DRAFT (503).
 */
export async function sendCampaign({
  sql,
  engine,
  billingOn,
  projectId,
  campaignId,
  scheduledFor,
  now = new Date(),
}: Pick<CampaignDeps, 'sql' | 'engine' | 'billingOn'> & {
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
  if (billingOn) {
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

  const row = await sql.transaction(async (tx) => {
    const sent = await markCampaignSent(tx, {
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
      throw new DomainError('SERVICE_UNAVAILABLE', 'The send could not be started now', {
        suggestion: 'Retry in a moment; the campaign is still a DRAFT.',
      });
    }
    return sent;
  });
  return toCampaignView(row);
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

export interface CampaignStats extends CampaignEmailFigureCounts {
  recipients: number;
  failed: number;
  skipped: number;
  /** Recipients whose email was never handed to SMTP because the campaign was cancelled. */
  cancelled: number;
  /** Recipients waiting to be queued, and emails waiting for SMTP. */
  pending: number;
  queued: number;
  openRate: number;
  clickRate: number;
  bounceRate: number;
}

/** decisions.md's figures, counted from rows; rates are fractions of sent. */
export async function getCampaignStats({
  sql,
  projectId,
  campaignId,
}: {
  sql: Sql;
  projectId: string;
  campaignId: string;
}): Promise<CampaignStats> {
  await requireCampaign(sql, projectId, campaignId);
  const s = await campaignStatsRows(sql, { campaignId });
  return {
    recipients: s.recipients,
    sent: s.sent,
    delivered: s.delivered,
    opened: s.opened,
    clicked: s.clicked,
    bounced: s.bounced,
    complained: s.complained,
    unsubscribed: s.unsubscribed,
    failed: s.failed,
    skipped: s.skipped,
    cancelled: s.unqueued_cancelled + s.cancelled,
    pending: s.pending,
    queued: s.queued,
    openRate: rate(s.opened, s.sent),
    clickRate: rate(s.clicked, s.sent),
    bounceRate: rate(s.bounced, s.sent),
  };
}
