import { describe, expect, it } from 'vitest';
import { AUTH_TOKEN_PURPOSES } from '../../domain/accounts/auth-token-purpose.pure.js';
import { EXECUTION_COMMAND_KINDS } from '../../domain/automation/execution-command.pure.js';
import {
  EXECUTION_STATUSES,
  STEP_RUN_STATUSES,
} from '../../domain/automation/execution-status.pure.js';
import { STEP_TYPES, TRANSITION_BRANCHES } from '../../domain/automation/step-type.pure.js';
import { TRIGGER_TYPES } from '../../domain/automation/trigger-type.pure.js';
import { BILLING_CATEGORIES, BILLING_PLANS } from '../../domain/billing/billing-vocabulary.pure.js';
import {
  AUDIENCE_TYPES,
  CAMPAIGN_STATUSES,
  RECIPIENT_STATUSES,
} from '../../domain/campaigns/campaign-status.pure.js';
import { DOMAIN_STATUSES } from '../../domain/domains/domain-status.pure.js';
import { JOB_STATUSES } from '../../domain/jobs/job-status.pure.js';
import { JOB_TYPES } from '../../domain/jobs/job-type.pure.js';
import { PROJECT_ROLES } from '../../domain/projects/roles.pure.js';
import { SEGMENT_TYPES } from '../../domain/segments/segment-type.pure.js';
import { EMAIL_STATUSES } from '../../domain/sending/email-status.pure.js';
import { EMAIL_TYPES } from '../../domain/sending/email-type.pure.js';
import { withDatabase } from '../helpers/database.js';

// A CHECK constraint that lists a vocabulary's values is a second copy of it: this holds every
// such list in the migrated database equal to the vocabulary its column stores, so a value added
// to one without a migration for the other fails here instead of as a 500 at an INSERT.
const VOCABULARY_OF: Record<string, readonly string[]> = {
  'auth_tokens.purpose': AUTH_TOKEN_PURPOSES,
  'billing_caps.category': BILLING_CATEGORIES,
  'campaign_recipients.status': RECIPIENT_STATUSES,
  'campaigns.audience_type': AUDIENCE_TYPES,
  'campaigns.status': CAMPAIGN_STATUSES,
  'domains.status': DOMAIN_STATUSES,
  'emails.status': EMAIL_STATUSES,
  'emails.type': EMAIL_TYPES,
  'execution_commands.kind': EXECUTION_COMMAND_KINDS,
  'execution_steps.status': STEP_RUN_STATUSES,
  'execution_steps.type': STEP_TYPES,
  'executions.status': EXECUTION_STATUSES,
  'jobs.status': JOB_STATUSES,
  'jobs.type': JOB_TYPES,
  'project_billing.plan': BILLING_PLANS,
  'project_members.role': PROJECT_ROLES,
  'segments.type': SEGMENT_TYPES,
  'templates.type': EMAIL_TYPES,
  'workflow_steps.type': STEP_TYPES,
  'workflow_transitions.branch': TRANSITION_BRANCHES,
  'workflows.trigger_type': TRIGGER_TYPES,
};

/** `column = ANY (ARRAY['A'::text, ...])` as PostgreSQL prints an IN list; undefined otherwise. */
function listedValues(def: string): { column: string; values: string[] } | undefined {
  const match =
    /^CHECK \(\(\(?(\w+)\)?(?:::text)? = ANY \(\(?ARRAY\[(.*)\]\)?(?:::text\[\])?\)\)\)$/.exec(def);
  if (!match) return undefined;
  const values = [...(match[2] as string).matchAll(/'((?:[^']|'')*)'::text/g)].map((m) =>
    (m[1] as string).replaceAll("''", "'"),
  );
  return { column: match[1] as string, values };
}

describe('CHECK constraints', () => {
  it('list exactly the values of the vocabulary each column stores', async () => {
    const checks = await withDatabase(
      async (db) =>
        (
          await db.query<{ table: string; def: string }>(
            `SELECT conrelid::regclass::text AS table, pg_get_constraintdef(oid) AS def
               FROM pg_constraint
              WHERE contype = 'c' AND connamespace = 'public'::regnamespace
              ORDER BY 1, 2`,
          )
        ).rows,
    );
    const lists = checks.flatMap(({ table, def }) => {
      const listed = listedValues(def);
      return listed ? [{ key: `${table}.${listed.column}`, values: listed.values }] : [];
    });
    // Every list is found (the pattern reads PostgreSQL's own printing of each of them).
    expect(lists.length).toBe(checks.filter((c) => c.def.includes('= ANY')).length);
    const found = Object.fromEntries(lists.map((l) => [l.key, [...l.values].sort()]));
    const expected = Object.fromEntries(
      Object.entries(VOCABULARY_OF).map(([key, values]) => [key, [...values].sort()]),
    );
    expect(found).toEqual(expected);
  });
});
