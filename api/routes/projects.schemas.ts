import { z } from 'zod';
import { PROJECT_ROLES } from '../../domain/projects/roles.pure.js';
import { SECURITY_STATUSES } from '../../domain/projects/security-status.pure.js';
import { trackingChoiceView, trackingSwitches } from '../../domain/tracking/tracking-input.pure.js';

export const projectIdParams = z.object({ id: z.uuid() });
export const memberParams = z.object({ id: z.uuid(), userId: z.uuid() });

export const createProjectBody = z.object({ name: z.string().trim().min(1).max(100) });
export const updateProjectBody = z
  .object({
    name: z.string().trim().min(1).max(100).optional(),
    settings: z.object({ tracking: trackingSwitches.optional() }).strict().optional(),
  })
  .strict();

export const roleField = z.enum(PROJECT_ROLES);
export const addMemberBody = z.object({
  email: z.email().max(254),
  role: roleField.default('MEMBER'),
});
export const changeRoleBody = z.object({ role: roleField });

export const projectView = z.object({
  id: z.uuid(),
  name: z.string(),
  publicKey: z.string(),
  secretKey: z.string().describe('Masked, except in the answers of create and regenerate-keys'),
  settings: z.object({
    tracking: trackingChoiceView.describe(
      "Open and click tracking of the project's mail, unless a send, campaign or template says otherwise (both on by default)",
    ),
  }),
  disabled: z.boolean(),
  role: roleField.optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const memberView = z.object({
  userId: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  role: roleField,
  createdAt: z.string(),
});

export const securityView = z.object({
  projectId: z.uuid(),
  windowDays: z.number(),
  sent: z.number(),
  bounced: z.number(),
  complained: z.number(),
  bounceRate: z.number(),
  complaintRate: z.number(),
  status: z.enum(SECURITY_STATUSES),
  disabled: z.boolean(),
  suspensions: z.array(z.object({ reason: z.string(), since: z.string() })),
});

export const setupStateView = z.object({
  projectId: z.uuid(),
  steps: z.object({
    ownerEmailVerified: z.boolean(),
    teamInvited: z.boolean(),
    domainVerified: z.boolean(),
    templateCreated: z.boolean(),
    contactAdded: z.boolean(),
    emailSent: z.boolean(),
    workflowEnabled: z.boolean(),
    campaignSent: z.boolean(),
    billingSubscribed: z.boolean().optional().meta({ description: 'Only when billing is on' }),
  }),
  completed: z.boolean(),
});
