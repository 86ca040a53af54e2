import type { AudienceType } from '../../domain/campaigns/campaign-status.pure.js';
import type { Filter } from '../../domain/segments/filter/ast.pure.js';
import type { SqlFragment } from '../../domain/segments/filter/compile-sql.pure.js';
import { blockedReasonSql, suppressionJoinSql } from './email-outbox.sql.js';
import { optInPendingSql } from './opt-in-state.sql.js';
import type { Sql } from './sql.js';

// A campaign's audience: found, counted, and frozen into recipient rows when it is sent.

/** Who a campaign goes to, and from which address, as its send reads it. */
export interface CampaignAudienceRow {
  project_id: string;
  from_address: string;
  audience_type: AudienceType;
  segment_id: string | null;
  audience_filter: Filter | null;
  snapshot_at: Date | null;
}

export async function findCampaignAudience(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<CampaignAudienceRow | undefined> {
  const [row] = await sql.query<CampaignAudienceRow>(
    `SELECT project_id, from_address, audience_type, segment_id, audience_filter, snapshot_at
       FROM campaigns WHERE id = $1`,
    [campaignId],
  );
  return row;
}

export interface SnapshotCounts {
  recipients: number;
  skipped: number;
}

/** Why a campaign may not mail contact `c` now (see blockedReasonSql); needs `s` joined. */
export const CAMPAIGN_BLOCKED_REASON = blockedReasonSql({
  unsubscribedBlocks: 'true',
  subscribed: 'c.subscribed',
  awaitingOptIn: optInPendingSql('c'),
});

export const CAMPAIGN_SUPPRESSION_JOIN = suppressionJoinSql({
  projectId: 'c.project_id',
  email: 'c.email',
});

/**
 * INSERT of the recipient rows of an audience, without its ON CONFLICT: contact `c` is PENDING,
 * or SKIPPED with the reason. Its parameters follow the audience's: the campaign, then the project.
 * No foreign key checks the campaign per row (its delete trigger takes the rows with it): each
 * statement using this locks the campaign row once, so it cannot be deleted meanwhile.
 */
function insertRecipientsSql(audience: SqlFragment | undefined): string {
  const n = audience?.params.length ?? 0;
  return `INSERT INTO campaign_recipients (campaign_id, contact_id, status, skip_reason)
    SELECT $${n + 1}::uuid, c.id,
           CASE WHEN r.reason IS NULL THEN 'PENDING' ELSE 'SKIPPED' END, r.reason
      FROM contacts c
      -- One hash join against the project's suppressions, not a probe per contact.
      ${CAMPAIGN_SUPPRESSION_JOIN}
      CROSS JOIN LATERAL (SELECT ${CAMPAIGN_BLOCKED_REASON} AS reason) r
     WHERE c.project_id = $${n + 2}::uuid AND (${audience?.text ?? 'true'})`;
}

/**
 * The first `limit` recipients of a SENDING campaign whose snapshot is not made yet, committed on
 * their own so that their emails can go out while snapshotRecipients freezes the rest (a large
 * audience takes it most of a second). Only for a campaign without a cap to charge: the cap is
 * charged in the snapshot's one transaction. Repeating it adds nothing twice (the recipient key).
 * The campaign row is locked FOR KEY SHARE, as a foreign key would, once for the statement.
 * Answers how many rows it added.
 */
export async function snapshotFirstRecipients(
  sql: Sql,
  {
    campaignId,
    projectId,
    audience,
    limit,
  }: { campaignId: string; projectId: string; audience: SqlFragment | undefined; limit: number },
): Promise<number> {
  const n = audience?.params.length ?? 0;
  const [row] = await sql.query<{ added: number }>(
    `WITH added AS (
       ${insertRecipientsSql(audience)}
          AND EXISTS (SELECT 1 FROM campaigns
                       WHERE id = $${n + 1} AND status = 'SENDING' AND snapshot_at IS NULL
                         FOR KEY SHARE)
        LIMIT $${n + 3}
       ON CONFLICT DO NOTHING
       RETURNING 1)
     SELECT count(*)::int AS added FROM added`,
    [...(audience?.params ?? []), campaignId, projectId, limit],
  );
  return row?.added ?? 0;
}

/**
 * Freezes a SENDING campaign's audience into recipient rows with one INSERT ... SELECT, once:
 * the campaign row is locked and marked in the same transaction, so a retried attempt finds the
 * snapshot made and only counts it. Unsubscribed and suppressed contacts are SKIPPED with the
 * reason. `audience` is a compiled filter over `contacts c` (undefined: every contact).
 * Undefined when the campaign is not SENDING.
 */
export async function snapshotRecipients(
  sql: Sql,
  {
    campaignId,
    projectId,
    audience,
    charge,
  }: {
    campaignId: string;
    projectId: string;
    audience: SqlFragment | undefined;
    /** Runs in the snapshot's transaction with the recipients to be sent; a throw undoes it. */
    charge?: (tx: Sql, pending: number) => Promise<void>;
  },
): Promise<SnapshotCounts | undefined> {
  return sql.transaction(async (tx) => {
    const [campaign] = await tx.query<{ snapshot_at: Date | null }>(
      `SELECT snapshot_at FROM campaigns WHERE id = $1 AND status = 'SENDING' FOR UPDATE`,
      [campaignId],
    );
    if (!campaign) return undefined;
    // Made already: a retried attempt only counts it.
    if (campaign.snapshot_at) return countRecipients(tx, { campaignId });
    // The only rows there yet are snapshotFirstRecipients' (at most a few hundred), and none can
    // be added meanwhile, as that statement locks the campaign row this one holds.
    const first = await countRecipients(tx, { campaignId });
    // Without ON CONFLICT (its speculative insert per row costs a third of the statement): the
    // first rows are skipped by one hash anti-join. The counts come from the INSERT itself, not
    // from a second pass over the rows it wrote.
    const n = audience?.params.length ?? 0;
    const [inserted] = await tx.query<SnapshotCounts & { pending: number }>(
      `WITH inserted AS (
         ${insertRecipientsSql(audience)}
           AND NOT EXISTS (SELECT 1 FROM campaign_recipients first
                            WHERE first.campaign_id = $${n + 1} AND first.contact_id = c.id)
         RETURNING status)
       SELECT count(*)::int AS recipients,
              count(*) FILTER (WHERE status = 'SKIPPED')::int AS skipped,
              count(*) FILTER (WHERE status = 'PENDING')::int AS pending
         FROM inserted`,
      [...(audience?.params ?? []), campaignId, projectId],
    );
    await charge?.(tx, inserted?.pending ?? 0);
    await tx.query('UPDATE campaigns SET snapshot_at = now() WHERE id = $1', [campaignId]);
    return {
      recipients: first.recipients + (inserted?.recipients ?? 0),
      skipped: first.skipped + (inserted?.skipped ?? 0),
    };
  });
}

/** The contacts of an audience a send would reach now (not unsubscribed, not suppressed). */
export async function countReachableAudience(
  sql: Sql,
  { projectId, audience }: { projectId: string; audience: SqlFragment | undefined },
): Promise<number> {
  const n = audience?.params.length ?? 0;
  const [row] = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM contacts c
       ${CAMPAIGN_SUPPRESSION_JOIN}
      WHERE c.project_id = $${n + 1}::uuid AND (${audience?.text ?? 'true'})
        AND ${CAMPAIGN_BLOCKED_REASON} IS NULL`,
    [...(audience?.params ?? []), projectId],
  );
  return row?.n ?? 0;
}

/** How many contacts an audience matches now, and how many of them a send would reach. */
export async function measureAudienceRows(
  sql: Sql,
  { projectId, audience }: { projectId: string; audience: SqlFragment | undefined },
): Promise<{ matching: number; reachable: number }> {
  const n = audience?.params.length ?? 0;
  const [row] = await sql.query<{ matching: number; reachable: number }>(
    `SELECT count(*)::int AS matching,
            count(*) FILTER (WHERE ${CAMPAIGN_BLOCKED_REASON} IS NULL)::int AS reachable
       FROM contacts c
       ${CAMPAIGN_SUPPRESSION_JOIN}
      WHERE c.project_id = $${n + 1}::uuid AND (${audience?.text ?? 'true'})`,
    [...(audience?.params ?? []), projectId],
  );
  return row ?? { matching: 0, reachable: 0 };
}

export async function countRecipients(
  sql: Sql,
  { campaignId }: { campaignId: string },
): Promise<SnapshotCounts> {
  // From the kept figures (campaign-figures.sql.ts), not a count of up to a million rows.
  const [row] = await sql.query<SnapshotCounts>(
    `SELECT coalesce(sum(recipients), 0)::int AS recipients, coalesce(sum(skipped), 0)::int AS skipped
       FROM campaign_figures WHERE campaign_id = $1`,
    [campaignId],
  );
  return row ?? { recipients: 0, skipped: 0 };
}
