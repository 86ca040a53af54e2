import { findSetupFacts } from '../../db/sql/projects.sql.js';
import type { Sql } from '../../db/sql/sql.js';

export interface SetupState {
  projectId: string;
  steps: {
    ownerEmailVerified: boolean;
    teamInvited: boolean;
    domainVerified: boolean;
    templateCreated: boolean;
    contactAdded: boolean;
    emailSent: boolean;
    workflowEnabled: boolean;
    campaignSent: boolean;
    /** Only when billing is on: the project has a paid subscription. */
    billingSubscribed?: boolean;
  };
  completed: boolean;
}

/**
 * The onboarding checklist, every step a new project goes through, computed from the project's
 * data each time (nothing to keep in sync). `completed` when every step listed is done.
 */
export async function projectSetupState({
  sql,
  projectId,
  billingOn,
}: {
  sql: Sql;
  projectId: string;
  billingOn: boolean;
}): Promise<SetupState> {
  // The route's projectPath authentication has found the project already.
  const facts = await findSetupFacts(sql, { projectId });
  const steps: SetupState['steps'] = {
    ownerEmailVerified: facts.owner_email_verified,
    teamInvited: facts.team_invited,
    domainVerified: facts.domain_verified,
    templateCreated: facts.template_created,
    contactAdded: facts.contact_added,
    emailSent: facts.email_sent,
    workflowEnabled: facts.workflow_enabled,
    campaignSent: facts.campaign_sent,
    ...(billingOn && { billingSubscribed: facts.billing_subscribed }),
  };
  return { projectId, steps, completed: Object.values(steps).every(Boolean) };
}
