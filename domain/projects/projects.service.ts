import { Project, ProjectMember, type User } from '../../db/entities/index.js';
import { deleteProjectData } from '../../db/sql/projects.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { doubleOptInOf } from '../contacts/double-opt-in-settings.pure.js';
import { removeReportMessages } from '../inbound/delivery-reports.service.js';
import { forbidden, notFound, requireFound } from '../shared/errors.js';
import type { Em } from '../shared/ports.js';
import {
  generateProjectKeys,
  hashSecretKey,
  keyKindOf,
  maskSecretKey,
  secretKeyHint,
  type ProjectKeys,
} from './api-keys.js';
import type { KeyKind } from './key-kind.pure.js';
import type { KeyLookup } from './key-lookups.js';
import {
  mergeProjectSettings,
  projectSettings,
  type ProjectSettings,
} from './project-settings.pure.js';
import { roleAtLeast, whoMay, type ProjectRole } from './roles.pure.js';

export interface ProjectView {
  id: string;
  name: string;
  publicKey: string;
  secretKey: string;
  settings: ReturnType<typeof projectSettings>;
  disabled: boolean;
  role?: ProjectRole;
  createdAt: string;
  updatedAt: string;
}

/** The secret key is never readable after creation or rotation; reads show a masked form. */
export function toProjectView(project: Project, role?: ProjectRole): ProjectView {
  return {
    id: project.id,
    name: project.name,
    publicKey: project.publicKey,
    secretKey: maskSecretKey(project.secretKeyHint),
    settings: projectSettings(project.settings),
    disabled: Boolean(project.disabledAt),
    role,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  };
}

export async function createProject({
  em,
  owner,
  name,
}: {
  em: Em;
  owner: User | string;
  name: string;
}): Promise<{ project: Project; keys: ProjectKeys }> {
  const keys = generateProjectKeys();
  const project = em.create(Project, {
    name,
    publicKey: keys.publicKey,
    secretKeyHash: hashSecretKey(keys.secretKey),
    secretKeyHint: secretKeyHint(keys.secretKey),
    settings: {},
  });
  em.create(ProjectMember, { project, user: owner, role: 'OWNER' });
  await em.flush();
  return { project, keys };
}

/** A user's or a project's memberships, oldest first, with the other side loaded. */
export const membershipsOf = (em: Em, of: { user: string } | { project: string }) =>
  em.find(ProjectMember, of, {
    populate: ['user' in of ? 'project' : 'user'],
    orderBy: { createdAt: 'asc' },
  });

export async function listProjectsOfUser({
  em,
  userId,
}: {
  em: Em;
  userId: string;
}): Promise<ProjectView[]> {
  const memberships = await membershipsOf(em, { user: userId });
  return memberships.map((m) => toProjectView(m.project as Project, m.role));
}

export async function getProject({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<Project> {
  return requireFound(await em.findOne(Project, { id: projectId }), 'Project');
}

export async function updateProject({
  em,
  projectId,
  name,
  settings,
}: {
  em: Em;
  projectId: string;
  name?: string;
  settings?: ProjectSettings;
}): Promise<Project> {
  const project = await getProject({ em, projectId });
  if (name !== undefined) project.name = name;
  if (settings !== undefined) project.settings = mergeProjectSettings(project.settings, settings);
  await em.flush();
  return project;
}

/** Both keys change together; the old ones stop working with this commit. */
export async function regenerateKeys({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<{ project: Project; keys: ProjectKeys }> {
  const project = await getProject({ em, projectId });
  const keys = generateProjectKeys();
  project.publicKey = keys.publicKey;
  project.secretKeyHash = hashSecretKey(keys.secretKey);
  project.secretKeyHint = secretKeyHint(keys.secretKey);
  await em.flush();
  return { project, keys };
}

/** Wipes the project's rows, and the raw report messages kept for them under `dataDir`. */
export async function resetProject({
  sql,
  projectId,
  dataDir,
}: {
  sql: Sql;
  projectId: string;
  dataDir: string;
}): Promise<void> {
  if (!(await deleteProjectData(sql, { projectId }))) throw notFound('Project');
  await removeReportMessages({ dataDir, projectId });
}

export async function deleteProject({
  em,
  projectId,
  dataDir,
}: {
  em: Em;
  projectId: string;
  dataDir: string;
}): Promise<void> {
  const project = await getProject({ em, projectId });
  // Foreign keys cascade from projects to every project-owned row.
  await em.removeAndFlush(project);
  await removeReportMessages({ dataDir, projectId });
}

export interface KeyIdentity {
  projectId: string;
  kind: KeyKind;
  disabled: boolean;
  /**
   * A public key's subscriptions wait for a confirmation (the project's double opt-in), read in
   * the same statement as the key; false for a secret key.
   */
  asksConfirmation: boolean;
}

/** Who an API key is: a secret key is looked up by its hash, a public one as it is. */
export async function authenticateApiKey({
  lookup,
  key,
}: {
  lookup: KeyLookup;
  key: string;
}): Promise<KeyIdentity | undefined> {
  const kind = keyKindOf(key);
  if (!kind) return undefined;
  const row = await lookup({ kind, key: kind === 'secret' ? hashSecretKey(key) : key });
  return (
    row && {
      projectId: row.id,
      kind,
      disabled: row.disabled,
      asksConfirmation: kind === 'public' && doubleOptInOf(row.double_opt_in).enabled,
    }
  );
}

/** A project the user is not a member of does not exist for them (404, never 403). */
export async function membershipRole({
  em,
  userId,
  projectId,
}: {
  em: Em;
  userId: string;
  projectId: string;
}): Promise<ProjectRole> {
  const membership = await em.findOne(ProjectMember, { user: userId, project: projectId });
  if (!membership) throw notFound('Project');
  return membership.role;
}

/** Throws 403 unless `role` is at least `required`. */
export function requireRole(role: ProjectRole, required: ProjectRole, action: string): void {
  if (!roleAtLeast(role, required)) throw forbidden(`Only ${whoMay(required)} can ${action}`);
}
