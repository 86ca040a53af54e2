import { AUTH_TOKEN_PURPOSES } from '../domain/accounts/auth-token-purpose.pure.js';
import { EXECUTION_COMMAND_KINDS } from '../domain/automation/execution-command.pure.js';
import {
  EXECUTION_STATUSES,
  STEP_RUN_STATUSES,
} from '../domain/automation/execution-status.pure.js';
import { STEP_TYPES, TRANSITION_BRANCHES } from '../domain/automation/step-type.pure.js';
import { TRIGGER_TYPES } from '../domain/automation/trigger-type.pure.js';
import { BILLING_CATEGORIES, BILLING_PLANS } from '../domain/billing/billing-vocabulary.pure.js';
import {
  AUDIENCE_TYPES,
  CAMPAIGN_STATUSES,
  RECIPIENT_STATUSES,
} from '../domain/campaigns/campaign-status.pure.js';
import { DOMAIN_STATUSES } from '../domain/domains/domain-status.pure.js';
import { REPORT_FORMATS, REPORT_OUTCOMES } from '../domain/inbound/report-reading.pure.js';
import { JOB_STATUSES } from '../domain/jobs/job-status.pure.js';
import { JOB_TYPES } from '../domain/jobs/job-type.pure.js';
import { PROJECT_ROLES } from '../domain/projects/roles.pure.js';
import { SEGMENT_TYPES } from '../domain/segments/segment-type.pure.js';
import { SUPPRESSION_REASONS } from '../domain/sending/bounce-policy.pure.js';
import { EMAIL_STATUSES } from '../domain/sending/email-status.pure.js';
import { EMAIL_TYPES } from '../domain/sending/email-type.pure.js';
import { WEBHOOK_DELIVERY_STATUSES } from '../domain/webhooks/webhook-delivery-status.pure.js';

// A CHECK constraint that lists a vocabulary's values is generated from the vocabulary: after the
// migrations, `syncVocabularyChecks` rewrites each list that differs from the vocabulary its
// column stores. A value added to a vocabulary (a step type, say) needs no migration; a value
// removed while rows still hold it fails the sync loudly (the constraint does not validate).

/** `table.column` -> the vocabulary the column stores. */
export const VOCABULARY_CHECKS: Record<string, readonly string[]> = {
  'auth_tokens.purpose': AUTH_TOKEN_PURPOSES,
  'billing_caps.category': BILLING_CATEGORIES,
  'campaign_recipients.status': RECIPIENT_STATUSES,
  'campaigns.audience_type': AUDIENCE_TYPES,
  'campaigns.status': CAMPAIGN_STATUSES,
  'delivery_reports.format': REPORT_FORMATS,
  'delivery_reports.outcome': REPORT_OUTCOMES,
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
  'suppressions.reason': SUPPRESSION_REASONS,
  'templates.type': EMAIL_TYPES,
  'webhook_deliveries.status': WEBHOOK_DELIVERY_STATUSES,
  'workflow_steps.type': STEP_TYPES,
  'workflow_transitions.branch': TRANSITION_BRANCHES,
  'workflows.trigger_type': TRIGGER_TYPES,
};

/** `column = ANY (ARRAY['A'::text, ...])` as PostgreSQL prints an IN list; undefined otherwise. */
export function listedValues(def: string): { column: string; values: string[] } | undefined {
  const match =
    /^CHECK \(\(\(?(\w+)\)?(?:::text)? = ANY \(\(?ARRAY\[(.*)\]\)?(?:::text\[\])?\)\)\)( NOT VALID)?$/.exec(
      def,
    );
  if (!match) return undefined;
  const values = [...(match[2] as string).matchAll(/'((?:[^']|'')*)'::text/g)].map((m) =>
    (m[1] as string).replaceAll("''", "'"),
  );
  return { column: match[1] as string, values };
}

/** The part of a pg client (or knex's raw connection) the sync uses. */
export interface QueryRunner {
  query(text: string): Promise<{ rows: unknown[] }>;
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (value: string) => `'${value.replaceAll("'", "''")}'`;
const sameSet = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');

/**
 * Rewrites every vocabulary CHECK whose list differs from its vocabulary (added NOT VALID, then
 * validated, so rows are read without blocking writers); answers the `table.column`s rewritten.
 * Run under the migration lock.
 */
export async function syncVocabularyChecks(db: QueryRunner): Promise<string[]> {
  const { rows } = (await db.query(
    `SELECT conrelid::regclass::text AS table, conname AS name, pg_get_constraintdef(oid) AS def
       FROM pg_constraint
      WHERE contype = 'c' AND connamespace = 'public'::regnamespace`,
  )) as { rows: { table: string; name: string; def: string }[] };
  const rewritten: string[] = [];
  for (const { table, name, def } of rows) {
    const listed = listedValues(def);
    const key = listed && `${table}.${listed.column}`;
    const vocabulary = key && VOCABULARY_CHECKS[key];
    if (!listed || !key || !vocabulary || sameSet(listed.values, vocabulary)) continue;
    const t = quoteIdent(table);
    const c = quoteIdent(name);
    const values = vocabulary.map(quoteLiteral).join(', ');
    await db.query(
      `ALTER TABLE ${t} DROP CONSTRAINT ${c},
         ADD CONSTRAINT ${c} CHECK (${quoteIdent(listed.column)} IN (${values})) NOT VALID`,
    );
    await db.query(`ALTER TABLE ${t} VALIDATE CONSTRAINT ${c}`);
    rewritten.push(key);
  }
  return rewritten;
}
