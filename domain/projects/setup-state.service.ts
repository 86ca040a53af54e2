import type { User } from '../../db/entities/index.js';
import { ProjectMember } from '../../db/entities/index.js';
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
  const [sent] = await em
    .getConnection()
    .execute<{ any: boolean }[]>(
      'SELECT EXISTS (SELECT 1 FROM emails WHERE project_id = ? AND sent_at IS NOT NULL) AS any',
      [projectId],
    );
  const steps = {
    ownerEmailVerified: owners.some((o) => Boolean((o.user as User).emailVerifiedAt)),
    teamInvited: memberCount > 1,
    emailSent: Boolean(sent?.any),
  };
  return { projectId, steps, completed: Object.values(steps).every(Boolean) };
}
