import { User } from '../../db/entities/index.js';
import { createProject } from '../projects/projects.service.js';
import type { ProjectKeys } from '../projects/api-keys.js';
import type { Em } from '../shared/ports.js';
import { randomBase62 } from '../shared/secrets.js';
import { hashPassword } from './passwords.js';

export interface FirstAccount {
  email: string;
  password: string;
  projectId: string;
  keys: ProjectKeys;
}

/** On an empty installation, creates a verified user and a first project; otherwise nothing. */
export async function ensureFirstAccount({
  em,
  email,
}: {
  em: Em;
  email: string;
}): Promise<FirstAccount | undefined> {
  if ((await em.count(User, {})) > 0) return undefined;
  const password = randomBase62(20);
  const user = em.create(User, {
    email,
    passwordHash: await hashPassword(password),
    name: 'Admin',
    emailVerifiedAt: new Date(),
  });
  const { project, keys } = await createProject({ em, owner: user, name: 'My first project' });
  return { email, password, projectId: project.id, keys };
}
