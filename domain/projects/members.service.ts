import { ProjectMember, User } from '../../db/entities/index.js';
import { normaliseEmail } from '../contacts/data-rules.pure.js';
import { DomainError, conflict, forbidden, notFound } from '../shared/errors.js';
import { newId } from '../shared/ids.js';
import type { Em, WorkflowEngine } from '../shared/ports.js';
import { membershipsOf, requireRole } from './projects.service.js';
import type { ProjectRole } from './roles.pure.js';

export interface MemberView {
  userId: string;
  email: string;
  name: string | null;
  role: ProjectRole;
  createdAt: string;
}

function toMemberView(member: ProjectMember): MemberView {
  const user = member.user as User;
  return {
    userId: user.id,
    email: user.email,
    name: user.name ?? null,
    role: member.role,
    createdAt: member.createdAt.toISOString(),
  };
}

/** Who is acting: a member with a role, or the project's secret key (acting as an ADMIN). */
export interface Actor {
  userId?: string;
  role: ProjectRole;
}

export async function listMembers({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<MemberView[]> {
  return (await membershipsOf(em, { project: projectId })).map(toMemberView);
}

async function findMember(em: Em, projectId: string, userId: string): Promise<ProjectMember> {
  const member = await em.findOne(
    ProjectMember,
    { project: projectId, user: userId },
    { populate: ['user'] },
  );
  if (!member) throw notFound('Member');
  return member;
}

async function ownerCount(em: Em, projectId: string): Promise<number> {
  return em.count(ProjectMember, { project: projectId, role: 'OWNER' });
}

/** Adds an account as a member (callers are ADMINs: the route says so); only an OWNER adds an OWNER. */
export async function addMember({
  em,
  engine,
  projectId,
  actor,
  email,
  role,
}: {
  em: Em;
  engine: WorkflowEngine;
  projectId: string;
  actor: Actor;
  email: string;
  role: ProjectRole;
}): Promise<MemberView> {
  if (role === 'OWNER') requireRole(actor.role, 'OWNER', 'make someone an OWNER');
  const user = await em.findOne(User, { email: normaliseEmail(email) });
  if (!user) {
    throw new DomainError('NOT_FOUND', 'No account uses this email address', {
      suggestion: 'Ask them to sign up first, then invite them again.',
    });
  }
  const existing = await em.findOne(ProjectMember, { project: projectId, user: user.id });
  if (existing) throw conflict('This user is already a member of the project');
  const member = em.create(ProjectMember, { project: projectId, user, role });
  await em.flush();
  await engine.startSystemEmail({
    requestId: newId(),
    kind: 'PROJECT_INVITATION',
    userId: user.id,
    projectId,
  });
  return toMemberView(member);
}

/** Changes a role (callers are ADMINs); only an OWNER grants or touches an OWNER's role. */
export async function changeMemberRole({
  em,
  projectId,
  actor,
  userId,
  role,
}: {
  em: Em;
  projectId: string;
  actor: Actor;
  userId: string;
  role: ProjectRole;
}): Promise<MemberView> {
  const member = await findMember(em, projectId, userId);
  if (role === 'OWNER' || member.role === 'OWNER') {
    requireRole(actor.role, 'OWNER', "grant or change an OWNER's role");
  }
  if (member.role === 'OWNER' && role !== 'OWNER' && (await ownerCount(em, projectId)) <= 1) {
    throw conflict('A project keeps at least one OWNER', 'Make another member an OWNER first.');
  }
  member.role = role;
  await em.flush();
  return toMemberView(member);
}

/** Removes a member: an ADMIN removes others, anyone may leave, and an OWNER goes last. */
export async function removeMember({
  em,
  projectId,
  actor,
  userId,
}: {
  em: Em;
  projectId: string;
  actor: Actor;
  userId: string;
}): Promise<void> {
  const leaving = actor.userId === userId;
  if (!leaving) requireRole(actor.role, 'ADMIN', 'manage members');
  const member = await findMember(em, projectId, userId);
  if (member.role === 'OWNER') {
    if (!leaving && actor.role !== 'OWNER') throw forbidden('Only an OWNER can remove an OWNER');
    if ((await ownerCount(em, projectId)) <= 1) {
      throw conflict('A project keeps at least one OWNER', 'Make another member an OWNER first.');
    }
  }
  await em.removeAndFlush(member);
}
