import { campaignsReferencing } from '../../db/sql/campaigns.sql.js';
import type { CampaignStatus } from '../campaigns/campaign-status.pure.js';
import { Template } from '../../db/entities/index.js';
import { likeSubstring } from '../shared/like-pattern.pure.js';
import type { Sql } from '../../db/sql/sql.js';
import { workflowStepsUsingTemplate } from '../../db/sql/workflows.sql.js';
import { requireVerifiedSender } from '../domains/domains.service.js';
import type { EmailType } from '../sending/email-type.pure.js';
import { conflict, notFound } from '../shared/errors.js';
import type { Em } from '../shared/ports.js';
import { decodeCursor, encodeCursor } from '../shared/pagination.js';
import { assertTemplatesValid } from './template-engine.js';

export interface TemplateInput {
  name: string;
  subject: string;
  body: string;
  type: EmailType;
  from: string;
  fromName?: string | null;
  replyTo?: string | null;
}

export interface TemplateView extends Omit<TemplateInput, 'fromName' | 'replyTo'> {
  id: string;
  fromName: string | null;
  replyTo: string | null;
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
    createdAt: t.createdAt.toISOString(),
    updatedAt: t.updatedAt.toISOString(),
  };
}

export async function createTemplate({
  em,
  projectId,
  input,
}: {
  em: Em;
  projectId: string;
  input: TemplateInput;
}): Promise<Template> {
  assertTemplatesValid({ subject: input.subject, body: input.body });
  await requireVerifiedSender({ em, projectId, from: input.from });
  const template = em.create(Template, {
    project: projectId,
    ...input,
    fromName: input.fromName ?? null,
    replyTo: input.replyTo ?? null,
  });
  await em.flush();
  return template;
}

export async function getTemplate({
  em,
  projectId,
  templateId,
}: {
  em: Em;
  projectId: string;
  templateId: string;
}): Promise<Template> {
  const template = await em.findOne(Template, { id: templateId, project: projectId });
  if (!template) throw notFound('Template');
  return template;
}

export async function updateTemplate({
  em,
  projectId,
  templateId,
  patch,
}: {
  em: Em;
  projectId: string;
  templateId: string;
  patch: Partial<TemplateInput>;
}): Promise<Template> {
  const template = await getTemplate({ em, projectId, templateId });
  assertTemplatesValid({ subject: patch.subject, body: patch.body });
  if (patch.from !== undefined) await requireVerifiedSender({ em, projectId, from: patch.from });
  em.assign(template, patch);
  await em.flush();
  return template;
}

/** Refused (409) while a workflow's SEND_EMAIL step uses the template. */
export async function deleteTemplate({
  em,
  sql,
  projectId,
  templateId,
}: {
  em: Em;
  sql: Sql;
  projectId: string;
  templateId: string;
}): Promise<void> {
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

export async function duplicateTemplate({
  em,
  projectId,
  templateId,
}: {
  em: Em;
  projectId: string;
  templateId: string;
}): Promise<Template> {
  const source = await getTemplate({ em, projectId, templateId });
  const copy = em.create(Template, {
    project: projectId,
    name: `${source.name} (copy)`,
    subject: source.subject,
    body: source.body,
    type: source.type,
    from: source.from,
    fromName: source.fromName ?? null,
    replyTo: source.replyTo ?? null,
  });
  await em.flush();
  return copy;
}

/** The campaigns made from the template and the workflow steps that send it. */
export async function templateUsage({
  em,
  sql,
  projectId,
  templateId,
}: {
  em: Em;
  sql: Sql;
  projectId: string;
  templateId: string;
}): Promise<{
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
