import { Project, ProjectMember, type User } from '../../db/entities/index.js';
import type { ProjectSettings } from '../../db/entities/project.entity.js';
import type { ProjectRole } from '../../db/entities/project-member.entity.js';
import { DomainError, forbidden, notFound } from '../shared/errors.js';
import type { Sql } from '../../db/sql/sql.js';
import type { Em } from '../shared/ports.js';
import {
  generateProjectKeys,
  hashSecretKey,
  keyKindOf,
  maskSecretKey,
  secretKeyHint,
  type KeyKind,
  type ProjectKeys,
} from './api-keys.js';

export interface ProjectView {
  id: string;
  name: string;
  publicKey: string;
  secretKey: string;
  settings: Required<ProjectSettings>;
  disabled: boolean;
  role?: ProjectRole;
  createdAt: string;
  updatedAt: string;
}

const DEFAULT_SETTINGS: Required<ProjectSettings> = { trackingEnabled: true };

/** The secret key is never readable after creation or rotation; reads show a masked form. */
export function toProjectView(project: Project, role?: ProjectRole): ProjectView {
  return {
    id: project.id,
    name: project.name,
    publicKey: project.publicKey,
    secretKey: maskSecretKey(project.secretKeyHint),
    settings: { ...DEFAULT_SETTINGS, ...project.settings },
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

export async function listProjectsOfUser({
  em,
  userId,
}: {
  em: Em;
  userId: string;
}): Promise<ProjectView[]> {
  const memberships = await em.find(
    ProjectMember,
    { user: userId },
    { populate: ['project'], orderBy: { createdAt: 'asc' } },
  );
  return memberships.map((m) => toProjectView(m.project as Project, m.role));
}

export async function getProject({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<Project> {
  const project = await em.findOne(Project, { id: projectId });
  if (!project) throw notFound('Project');
  return project;
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
  if (settings !== undefined) project.settings = { ...project.settings, ...settings };
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

/** Tables holding a project's data (not its identity, keys or members), wiped by a reset. */
const PROJECT_DATA_TABLES = [
  'events',
  'jobs',
  'idempotency_keys',
  'emails',
  'attachments',
  'suppressions',
  'uploads',
  'contacts',
];

export async function resetProject({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<void> {
  await getProject({ em, projectId });
  await em.transactional(async (tx) => {
    for (const table of PROJECT_DATA_TABLES) {
      await tx
        .getConnection()
        .execute(
          `DELETE FROM ${table} WHERE project_id = ?`,
          [projectId],
          'run',
          tx.getTransactionContext(),
        );
    }
  });
}

export async function deleteProject({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<void> {
  const project = await getProject({ em, projectId });
  // Foreign keys cascade from projects to every project-owned row.
  await em.removeAndFlush(project);
}

export interface KeyIdentity {
  projectId: string;
  kind: KeyKind;
  disabled: boolean;
}

/** Runs on every API request, so it is one prepared statement on the pg pool. */
export async function authenticateApiKey({
  sql,
  key,
}: {
  sql: Sql;
  key: string;
}): Promise<KeyIdentity | undefined> {
  const kind = keyKindOf(key);
  if (!kind) return undefined;
  const [row] =
    kind === 'public'
      ? await sql.query<{ id: string; disabled: boolean }>(
          'SELECT id, disabled_at IS NOT NULL AS disabled FROM projects WHERE public_key = $1',
          [key],
          'project-by-public-key',
        )
      : await sql.query<{ id: string; disabled: boolean }>(
          'SELECT id, disabled_at IS NOT NULL AS disabled FROM projects WHERE secret_key_hash = $1',
          [hashSecretKey(key)],
          'project-by-secret-key',
        );
  return row ? { projectId: row.id, kind, disabled: row.disabled } : undefined;
}

const ROLE_RANK: Record<ProjectRole, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };

export function roleAtLeast(role: ProjectRole, required: ProjectRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[required];
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

export function requireRole(role: ProjectRole, required: ProjectRole, action: string): void {
  if (!roleAtLeast(role, required)) {
    throw forbidden(
      `Only ${required === 'OWNER' ? 'an OWNER' : 'an OWNER or ADMIN'} can ${action}`,
    );
  }
}

export function assertProjectEnabled(project: { disabledAt?: Date | null }): void {
  if (project.disabledAt) throw new DomainError('PROJECT_DISABLED', 'This project is disabled');
}
