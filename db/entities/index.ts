import { AuthToken } from './auth-token.entity.js';
import { Email } from './email.entity.js';
import { ProjectMember } from './project-member.entity.js';
import { Project } from './project.entity.js';
import { User } from './user.entity.js';

export { AuthToken, Email, Project, ProjectMember, User };
export const entities = [User, Project, ProjectMember, AuthToken, Email];
