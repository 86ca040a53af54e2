import { findSenderDomainId } from '../../db/sql/campaign-send.sql.js';
import {
  findCampaign,
  type CampaignContent,
  type CampaignRow,
} from '../../db/sql/campaigns.sql.js';
import { findSendContext } from '../../db/sql/queue-email.sql.js';
import {
  matchSenderDomain,
  senderHost,
  unverifiedSenderProblem,
} from '../domains/sender-domain.pure.js';
import { findSegment } from '../../db/sql/segments.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { filterReferences } from '../segments/filter/references.pure.js';
import { segmentDefinitions } from '../segments/segments.service.js';
import { conflict, requireFound, validationError, type FieldError } from '../shared/errors.js';
import type { QueueNotifier, WorkflowEngine } from '../shared/ports.js';
import { templateProblems } from '../templates/template-engine.js';
import { storedTracking } from '../tracking/tracking-choice.pure.js';
import type { CampaignInput } from './campaign-input.js';
import type { CampaignStatus } from './campaign-status.pure.js';

// What every campaign use case checks: the input against the project, the campaign exists,
// a draft is what changes, the sender is on a verified domain.

/** What the campaign use cases need: the pool, Temporal, and the queue this API's mail goes to. */
export interface CampaignDeps {
  sql: Sql;
  engine: WorkflowEngine;
  deliveryQueue: string;
  queueNotifier: QueueNotifier;
}

/** A campaign of a project, as the use cases that read or change it name it. */
export interface CampaignRef {
  sql: Sql;
  projectId: string;
  campaignId: string;
}

/** A campaign's input checked against its project. */
export interface CampaignInputScope {
  sql: Sql;
  projectId: string;
  input: CampaignInput;
}

/**
 * Checks a campaign's input against the project and settles its content: the template fills
 * what the body leaves out; `from` must be on a verified domain; the audience's segment (and any
 * segment its filter names) must exist. Every problem is a field error; nothing is written.
 */
export async function settleContent({
  sql,
  projectId,
  input,
}: CampaignInputScope): Promise<CampaignContent> {
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
    // Its own setting only: the template's is read when each email is queued.
    tracking: storedTracking(input.tracking),
    references,
  };
}

export async function audienceProblems({
  sql,
  projectId,
  input,
}: CampaignInputScope): Promise<FieldError[]> {
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

export async function requireCampaign(
  sql: Sql,
  projectId: string,
  campaignId: string,
): Promise<CampaignRow> {
  return requireFound(await findCampaign(sql, { projectId, campaignId }), 'Campaign');
}

export const notDraft = (status: CampaignStatus) =>
  conflict(
    `The campaign is ${status}; only a DRAFT campaign changes`,
    'Duplicate it (POST /campaigns/:id/duplicate) to make a new draft from it.',
  );

/** The sender's domain must still be verified when a send (or a test) begins. */
export async function requireSendingDomain(
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
