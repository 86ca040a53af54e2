import { campaignsReferencing } from '../../db/sql/campaigns.sql.js';
import type { CampaignStatus } from '../campaigns/campaign-status.pure.js';
import { Template } from '../../db/entities/index.js';
import { likeSubstring } from '../shared/like-pattern.pure.js';
import type { Sql } from '../../db/sql/sql.js';
import { workflowStepsUsingTemplate } from '../../db/sql/workflows.sql.js';
import { requireVerifiedSender } from '../domains/domains.service.js';
import type { EmailType } from '../sending/email-type.pure.js';
import { conflict, requireFound } from '../shared/errors.js';
import type { Em } from '../shared/ports.js';
import { decodeCursor, encodeCursor } from '../shared/pagination.js';
import { storedTracking, type TrackingKind } from '../tracking/tracking-choice.pure.js';
import type { TrackingOverride } from '../tracking/tracking-input.pure.js';
import { assertTemplatesValid } from './template-engine.js';

export interface TemplateInput {
  name: string;
  subject: string;
  body: string;
  type: EmailType;
  from: string;
  fromName?: string | null;
  replyTo?: string | null;
  /** Its own tracking setting; null where the project's decides. */
  tracking?: TrackingOverride;
}

export interface TemplateView extends Omit<TemplateInput, 'fromName' | 'replyTo' | 'tracking'> {
  id: string;
  fromName: string | null;
  replyTo: string | null;
  tracking: Record<TrackingKind, boolean | null>;
  createdAt: string;
  updatedAt: string;
}

export function toTemplateView(t: Template): TemplateView {
  return {
    id: t.id,
    name: t.name,
    subject: t.subject,
    body: t.body,
    type: t.type,
    from: t.from,
    fromName: t.fromName ?? null,
    replyTo: t.replyTo ?? null,
    tracking: { opens: t.openTracking ?? null, clicks: t.clickTracking ?? null },
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

/** A template to write into a project. */
interface NewTemplate {
  em: Em;
  projectId: string;
  input: TemplateInput;
}

export async function createTemplate({ em, projectId, input }: NewTemplate): Promise<Template> {
  assertTemplatesValid({ subject: input.subject, body: input.body });
  await requireVerifiedSender({ em, projectId, from: input.from });
  return insertTemplate({ em, projectId, input });
}

async function insertTemplate({ em, projectId, input }: NewTemplate): Promise<Template> {
  const { tracking, ...fields } = input;
  const { opens, clicks } = storedTracking(tracking);
  const template = em.create(Template, {
    project: projectId,
    ...fields,
    fromName: input.fromName ?? null,
    replyTo: input.replyTo ?? null,
    openTracking: opens,
    clickTracking: clicks,
  });
  await em.flush();
  return template;
}

/** A template of a project, as the use cases that read or change it name it. */
interface TemplateRef {
  em: Em;
  projectId: string;
  templateId: string;
}

export async function getTemplate({ em, projectId, templateId }: TemplateRef): Promise<Template> {
  return requireFound(
    await em.findOne(Template, { id: templateId, project: projectId }),
    'Template',
  );
}

export async function updateTemplate({
  em,
  projectId,
  templateId,
  patch,
}: TemplateRef & { patch: Partial<TemplateInput> }): Promise<Template> {
  const template = await getTemplate({ em, projectId, templateId });
  assertTemplatesValid({ subject: patch.subject, body: patch.body });
  if (patch.from !== undefined) await requireVerifiedSender({ em, projectId, from: patch.from });
  const { tracking, ...fields } = patch;
  em.assign(template, fields);
  // A kind the patch leaves out keeps its setting; null hands it back to the project.
  if (tracking?.opens !== undefined) template.openTracking = tracking.opens;
  if (tracking?.clicks !== undefined) template.clickTracking = tracking.clicks;
  await em.flush();
  return template;
}

/** Refused (409) while a workflow's SEND_EMAIL step uses the template. */
export async function deleteTemplate({
  em,
  sql,
  projectId,
  templateId,
}: TemplateRef & { sql: Sql }): Promise<void> {
  const template = await getTemplate({ em, projectId, templateId });
  const steps = await workflowStepsUsingTemplate(sql, { projectId, templateId });
  if (steps.length > 0) {
    const names = [...new Set(steps.map((s) => `"${s.workflowName}"`))].join(', ');
    throw conflict(
      `The template is used by workflow ${names}`,
      'Change or delete the SEND_EMAIL steps that use it first.',
    );
  }
  await em.removeAndFlush(template);
}

/** A copy named "<name> (copy)", not checked again: the original was checked when written. */
export async function duplicateTemplate(ref: TemplateRef): Promise<Template> {
  const source = await getTemplate(ref);
  const { subject, body, type, from, fromName, replyTo } = source;
  const tracking = { opens: source.openTracking ?? null, clicks: source.clickTracking ?? null };
  return insertTemplate({
    em: ref.em,
    projectId: ref.projectId,
    input: {
      name: `${source.name} (copy)`,
      subject,
      body,
      type,
      from,
      fromName,
      replyTo,
      tracking,
    },
  });
}

/** The campaigns made from the template and the workflow steps that send it. */
export async function templateUsage({
  em,
  sql,
  projectId,
  templateId,
}: TemplateRef & { sql: Sql }): Promise<{
  templateId: string;
  campaigns: { id: string; name: string; status: CampaignStatus }[];
  workflowSteps: {
    workflowId: string;
    workflowName: string;
    stepId: string;
    stepName: string | null;
  }[];
}> {
  await getTemplate({ em, projectId, templateId });
  const [campaigns, workflowSteps] = await Promise.all([
    campaignsReferencing(sql, { projectId, templateId }),
    workflowStepsUsingTemplate(sql, { projectId, templateId }),
  ]);
  return { templateId, campaigns, workflowSteps };
}

export interface TemplateList {
  templates: TemplateView[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
  cursor: string | null;
  hasMore: boolean;
}

/**
 * Newest first. `cursor` pages by keyset (stable under inserts); without it `page` pages by
 * offset. `total` counts every template matching the filters, on every page.
 */
export async function listTemplates({
  em,
  projectId,
  limit,
  page,
  cursor,
  type,
  search,
}: {
  em: Em;
  projectId: string;
  limit: number;
  page: number;
  cursor?: string;
  type?: EmailType;
  search?: string;
}): Promise<TemplateList> {
  const where: Record<string, unknown> = { project: projectId };
  if (type) where.type = type;
  if (search) where.name = { $ilike: likeSubstring(search) };
  const keyset = cursor ? { ...where, id: { $lt: decodeCursor(cursor).id } } : where;
  const [rows, total] = await Promise.all([
    em.find(Template, keyset, {
      orderBy: { id: 'desc' },
      limit: limit + 1,
      offset: cursor ? 0 : (page - 1) * limit,
    }),
    em.count(Template, where),
  ]);
  const hasMore = rows.length > limit;
  const templates = rows.slice(0, limit);
  const last = templates[templates.length - 1];
  return {
    templates: templates.map(toTemplateView),
    total,
    page: cursor ? 0 : page,
    pageSize: limit,
    totalPages: Math.ceil(total / limit),
    cursor: hasMore && last ? encodeCursor({ sort: last.id, id: last.id }) : null,
    hasMore,
  };
}
