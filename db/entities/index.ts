import { AuthToken } from './auth-token.entity.js';
import { Contact } from './contact.entity.js';
import { Domain } from './domain.entity.js';
import { Email } from './email.entity.js';
import { Event } from './event.entity.js';
import { IdempotencyKey } from './idempotency-key.entity.js';
import { JobFile } from './job-file.entity.js';
import { Job } from './job.entity.js';
import { ProjectMember } from './project-member.entity.js';
import { Template } from './template.entity.js';
import { Project } from './project.entity.js';
import { User } from './user.entity.js';

export {
  AuthToken,
  Contact,
  Domain,
  Email,
  Event,
  IdempotencyKey,
  Job,
  JobFile,
  Project,
  ProjectMember,
  Template,
  User,
};
export const entities = [
  User,
  Project,
  ProjectMember,
  AuthToken,
  Email,
  Contact,
  Domain,
  Event,
  Job,
  JobFile,
  IdempotencyKey,
  Template,
];
