import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { PROJECT_ROLES } from '../../domain/projects/roles.pure.js';
import { Project } from './project.entity.js';
import { User } from './user.entity.js';

export const ProjectMember = defineEntity({
  name: 'ProjectMember',
  tableName: 'project_members',
  properties: {
    project: () => p.manyToOne(Project).primary().deleteRule('cascade'),
    user: () => p.manyToOne(User).primary().deleteRule('cascade').index(),
    role: p.enum([...PROJECT_ROLES]),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type ProjectMember = InferEntity<typeof ProjectMember>;
