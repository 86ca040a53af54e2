import { Email, ProjectMember, type User } from '../../db/entities/index.js';
import type { Em } from '../shared/ports.js';
import { getProject } from './projects.service.js';

export interface SetupState {
  projectId: string;
  steps: {
    ownerEmailVerified: boolean;
    teamInvited: boolean;
    emailSent: boolean;
  };
  completed: boolean;
}

/** Onboarding checklist, computed from the project's data each time (nothing to keep in sync). */
export async function projectSetupState({
  em,
  projectId,
}: {
  em: Em;
  projectId: string;
}): Promise<SetupState> {
  await getProject({ em, projectId });
  const owners = await em.find(
    ProjectMember,
    { project: projectId, role: 'OWNER' },
    { populate: ['user'] },
  );
  const memberCount = await em.count(ProjectMember, { project: projectId });
  const sent = await em.findOne(
    Email,
    { project: projectId, sentAt: { $ne: null } },
    { fields: ['id'] },
  );
  const steps = {
    ownerEmailVerified: owners.some((o) => Boolean((o.user as User).emailVerifiedAt)),
    teamInvited: memberCount > 1,
    emailSent: sent !== null,
  };
  return { projectId, steps, completed: Object.values(steps).every(Boolean) };
}
