import type { DoubleOptInSettings } from '../../domain/contacts/double-opt-in-settings.pure.js';
import type { KeyKind } from '../../domain/projects/key-kind.pure.js';
import type { InProject, Sql } from './sql.js';

export interface ProjectKeyRow {
  /** The key as looked up: the secret key's hash, or the public key. */
  key: string;
  id: string;
  disabled: boolean;
  /** The project's double opt-in setting (a public key's track reads it every time). */
  double_opt_in: Partial<DoubleOptInSettings>;
}

/** The column each kind of project key is looked up by. */
const KEY_COLUMNS = {
  public: 'public_key',
  secret: 'secret_key_hash',
} as const satisfies Record<KeyKind, string>;

/**
 * The projects of `keys` (secret keys by their hash), one row per known key; run on every API
 * request and every tracked event, many requests' keys in one prepared statement.
 */
export async function findProjectsByKeys(
  sql: Sql,
  { kind, keys }: { kind: KeyKind; keys: string[] },
): Promise<ProjectKeyRow[]> {
  const column = KEY_COLUMNS[kind];
  return sql.query<ProjectKeyRow>(
    `SELECT ${column} AS key, id, disabled_at IS NOT NULL AS disabled, double_opt_in
       FROM projects WHERE ${column} = ANY($1::text[])`,
    [keys],
    `projects-by-${kind}-keys`,
  );
}

// Tables holding a project's data (not its identity, keys or members), wiped by a reset.
// Children before the contacts they reference.
const PROJECT_DATA_TABLES: readonly string[] = [
  'event_outbox',
  'webhook_deliveries',
  'workflows',
  'campaigns',
  'events',
  'jobs',
  'idempotency_keys',
  'delivery_reports',
  'emails',
  'attachments',
  'suppressions',
  'uploads',
  'segments',
  'contacts',
];

// Tables whose rows are found through another key than an index on `project_id`.
const PROJECT_ROWS_OF: Partial<Record<string, string>> = {
  // No index on project_id (a row written three times pays for each index): through the endpoints.
  webhook_deliveries: 'endpoint_id IN (SELECT id FROM webhook_endpoints WHERE project_id = $1)',
};

/**
 * Deletes every row of the project's data, in one transaction that first locks the project row
 * (so nothing of it is written meanwhile). Answers false when there is no such project.
 */
export async function deleteProjectData(
  sql: Sql,
  { projectId }: { projectId: string },
): Promise<boolean> {
  return sql.transaction(async (tx) => {
    const found = await tx.query('SELECT 1 FROM projects WHERE id = $1 FOR UPDATE', [projectId]);
    if (found.length === 0) return false;
    for (const table of PROJECT_DATA_TABLES) {
      await tx.query(`DELETE FROM ${table} WHERE ${PROJECT_ROWS_OF[table] ?? 'project_id = $1'}`, [
        projectId,
      ]);
    }
    return true;
  });
}

export interface SendingHealthRow {
  disabled_at: Date | null;
  disabled_reason: string | null;
  sent: number;
  bounced: number;
  complained: number;
}

/**
 * The project's suspension and how many of the emails it created in the last `days` left,
 * bounced and were complained about; undefined when there is no such project. `sent` counts
 * what a mail server answered for: a relay's refusal of a dead address (BOUNCED, never SENT) too.
 */
export async function sendingHealth(
  sql: Sql,
  { projectId, days }: { projectId: string; days: number },
): Promise<SendingHealthRow | undefined> {
  const [row] = await sql.query<SendingHealthRow>(
    `SELECT p.disabled_at, p.disabled_reason, c.sent, c.bounced, c.complained
       FROM projects p
       CROSS JOIN LATERAL (
         SELECT count(*) FILTER (WHERE sent_at IS NOT NULL OR bounced_at IS NOT NULL)::int AS sent,
                count(*) FILTER (WHERE bounced_at IS NOT NULL)::int AS bounced,
                count(*) FILTER (WHERE complained_at IS NOT NULL)::int AS complained
           FROM emails
          WHERE project_id = p.id AND created_at > now() - make_interval(days => $2)) c
      WHERE p.id = $1`,
    [projectId, days],
  );
  return row;
}

export interface SetupFacts {
  owner_email_verified: boolean;
  team_invited: boolean;
  domain_verified: boolean;
  template_created: boolean;
  contact_added: boolean;
  email_sent: boolean;
  workflow_enabled: boolean;
  campaign_sent: boolean;
  billing_subscribed: boolean;
}

/** Whether the project went through each onboarding step, in one statement of EXISTS probes. */
export async function findSetupFacts(sql: Sql, { projectId }: InProject): Promise<SetupFacts> {
  const [row] = await sql.query<SetupFacts>(
    `SELECT
       EXISTS (SELECT 1 FROM project_members m JOIN users u ON u.id = m.user_id
                WHERE m.project_id = $1 AND m.role = 'OWNER' AND u.email_verified_at IS NOT NULL)
         AS owner_email_verified,
       (SELECT count(*) FROM project_members WHERE project_id = $1) > 1 AS team_invited,
       EXISTS (SELECT 1 FROM domains WHERE project_id = $1 AND status = 'VERIFIED') AS domain_verified,
       EXISTS (SELECT 1 FROM templates WHERE project_id = $1) AS template_created,
       EXISTS (SELECT 1 FROM contacts WHERE project_id = $1) AS contact_added,
       EXISTS (SELECT 1 FROM emails WHERE project_id = $1 AND sent_at IS NOT NULL) AS email_sent,
       EXISTS (SELECT 1 FROM workflows WHERE project_id = $1 AND enabled) AS workflow_enabled,
       EXISTS (SELECT 1 FROM campaigns WHERE project_id = $1 AND status = 'SENT') AS campaign_sent,
       EXISTS (SELECT 1 FROM project_billing WHERE project_id = $1 AND plan = 'PAID')
         AS billing_subscribed`,
    [projectId],
  );
  return row!;
}
