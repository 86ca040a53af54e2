import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { topCampaigns } from '../../db/sql/analytics.sql.js';
import { snapshotRecipients } from '../../db/sql/campaign-audience.sql.js';
import { CAMPAIGN_FIGURES } from '../../db/sql/campaign-figures.sql.js';
import { campaignStats } from '../../db/sql/campaigns.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { databasePool, seedProjectRows, withScratchDatabase } from '../helpers/database.js';

// A campaign's figures are read from campaign_figures (per campaign and connection shard),
// kept by statement triggers on emails and campaign_recipients. Whatever statement inserts,
// changes or deletes those rows, from however many connections, the sums equal what the rows say.

const { sql } = databasePool({ max: 6 });

/** Each figure as the email rows say it: the reference the kept counts must equal. */
const COUNTED = `count(*)::int AS emails,
  count(*) FILTER (WHERE status = 'QUEUED')::int AS queued,
  count(sent_at)::int AS sent,
  count(*) FILTER (WHERE status = 'DELIVERED' OR delivered_at IS NOT NULL)::int AS delivered,
  count(opened_at)::int AS opened, count(clicked_at)::int AS clicked,
  count(bounced_at)::int AS bounced, count(complained_at)::int AS complained,
  count(unsubscribed_at)::int AS unsubscribed,
  count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
  count(*) FILTER (WHERE status = 'CANCELLED')::int AS cancelled,
  count(*) FILTER (WHERE open_tracking)::int AS open_tracked,
  count(*) FILTER (WHERE click_tracking)::int AS click_tracked,
  count(sent_at) FILTER (WHERE open_tracking)::int AS open_tracked_sent,
  count(sent_at) FILTER (WHERE click_tracking)::int AS click_tracked_sent`;

/** The same of the recipient rows. */
const COUNTED_RECIPIENTS = `count(*)::int AS recipients,
  count(*) FILTER (WHERE status = 'PENDING')::int AS pending,
  count(*) FILTER (WHERE status = 'SKIPPED')::int AS skipped,
  count(*) FILTER (WHERE status = 'CANCELLED')::int AS unqueued_cancelled`;

async function keptAndCounted(
  campaignId: string,
): Promise<{ kept: Record<string, number>; counted: Record<string, number> }> {
  const stats = await campaignStats(sql, { campaignId });
  const kept = Object.fromEntries(CAMPAIGN_FIGURES.map((f) => [f, stats[f]]));
  const [counted] = await sql.query<Record<string, number>>(
    `SELECT e.*, r.* FROM (SELECT ${COUNTED} FROM emails WHERE campaign_id = $1) e,
            (SELECT ${COUNTED_RECIPIENTS} FROM campaign_recipients WHERE campaign_id = $1) r`,
    [campaignId],
  );
  return { kept, counted: counted ?? {} };
}

async function seedCampaigns(contacts: number, campaigns: number, db: Sql = sql) {
  const { projectId, ids } = await seedProjectRows(db, { name: 'figures', contacts });
  const campaignIds = Array.from({ length: campaigns }, () => randomUUID());
  await db.query(
    `INSERT INTO campaigns (id, project_id, name, subject, body, from_address, audience_type, status,
                            started_at, created_at, updated_at)
     SELECT id, $1, 'Figures', 'Hi', '<p>Hi</p>', 'news@figures.example.test', 'ALL', 'SENDING',
            now(), now(), now()
       FROM unnest($2::uuid[]) AS id`,
    [projectId, campaignIds],
  );
  // Every contact a recipient of every campaign, one statement each.
  for (const campaignId of campaignIds) {
    await db.query(
      `INSERT INTO campaign_recipients (campaign_id, contact_id, status)
       SELECT $1, id, 'PENDING' FROM unnest($2::uuid[]) AS id`,
      [campaignId, ids],
    );
  }
  return { projectId, ids, campaignIds };
}

/** One statement queueing an email to each contact for the campaign, every other one untracked. */
const queueEmails = (projectId: string, campaignId: string, contactIds: string[], db = sql) =>
  db.query<{ id: string }>(
    `INSERT INTO emails (id, project_id, contact_id, to_address, subject, type, status, campaign_id,
                         open_tracking, click_tracking, created_at)
     SELECT gen_random_uuid(), $1, c.id, c.id || '@example.com', 'Hi', 'MARKETING', 'QUEUED', $2,
            c.n % 2 = 0, c.n % 3 <> 0, now()
       FROM unnest($3::uuid[]) WITH ORDINALITY AS c(id, n)
     RETURNING id`,
    [projectId, campaignId, contactIds],
  );

describe('campaign_figures', () => {
  it('equals the email and recipient rows after inserts, COPY, batch updates from many connections and deletes', async () => {
    const { projectId, ids, campaignIds } = await seedCampaigns(60, 2);
    const [first, second] = campaignIds as [string, string];
    const queued = (await queueEmails(projectId, first, ids.slice(0, 40))).map((r) => r.id);
    const copied = await sql.copyFrom(
      'COPY emails (id, project_id, contact_id, to_address, subject, type, status, campaign_id, created_at) FROM STDIN (FORMAT csv)',
      (async function* () {
        for (const contact of ids.slice(40)) {
          yield `${randomUUID()},${projectId},${contact},${contact}@example.com,Hi,MARKETING,QUEUED,${second},${new Date().toISOString()}\n`;
        }
      })(),
    );
    expect(copied).toBe(20);
    // The first campaign's recipients queued in batches of ten at once, three of the rest skipped;
    // the second's cancelled before their emails were made.
    await Promise.all(
      [0, 10, 20, 30].map((from) =>
        sql.query(
          `UPDATE campaign_recipients SET status = 'QUEUED'
            WHERE campaign_id = $1 AND contact_id = ANY($2::uuid[])`,
          [first, ids.slice(from, from + 10)],
        ),
      ),
    );
    await sql.query(
      `UPDATE campaign_recipients SET status = 'SKIPPED', skip_reason = 'SUPPRESSED'
        WHERE campaign_id = $1 AND contact_id = ANY($2::uuid[])`,
      [first, ids.slice(40, 43)],
    );
    await sql.query(
      `UPDATE campaign_recipients SET status = 'CANCELLED' WHERE campaign_id = $1 AND status = 'PENDING'`,
      [second],
    );
    // A transactional email (no campaign) is counted nowhere.
    await sql.query(
      `INSERT INTO emails (id, project_id, to_address, subject, type, status, created_at)
       VALUES (gen_random_uuid(), $1, 'solo@example.com', 'Hi', 'TRANSACTIONAL', 'QUEUED', now())`,
      [projectId],
    );

    // Sent in batches of five, each its own statement, seven at once over six connections.
    const batches = Array.from({ length: 7 }, (_, i) => queued.slice(i * 5, i * 5 + 5));
    await Promise.all(
      batches.map((batch) =>
        sql.query(`UPDATE emails SET status = 'SENT', sent_at = now() WHERE id = ANY($1::uuid[])`, [
          batch,
        ]),
      ),
    );
    const at = (i: number) => [queued[i]] as string[];
    await sql.query(
      `UPDATE emails SET status = 'DELIVERED', delivered_at = now() WHERE id = ANY($1::uuid[])`,
      [queued.slice(0, 12)],
    );
    await sql.query(
      `UPDATE emails SET opened_at = coalesce(opened_at, now()) WHERE id = ANY($1::uuid[])`,
      [queued.slice(0, 9)],
    );
    await sql.query(`UPDATE emails SET clicked_at = now() WHERE id = ANY($1::uuid[])`, [at(3)]);
    await sql.query(
      `UPDATE emails SET bounced_at = now(), status = 'BOUNCED' WHERE id = ANY($1::uuid[])`,
      [queued.slice(20, 23)],
    );
    await sql.query(`UPDATE emails SET complained_at = now() WHERE id = ANY($1::uuid[])`, [at(4)]);
    await sql.query(`UPDATE emails SET unsubscribed_at = now() WHERE id = ANY($1::uuid[])`, [
      at(5),
    ]);
    await sql.query(`UPDATE emails SET status = 'FAILED' WHERE id = ANY($1::uuid[])`, [
      queued.slice(35, 37),
    ]);
    await sql.query(
      `UPDATE emails SET status = 'CANCELLED' WHERE campaign_id = $1 AND status = 'QUEUED'`,
      [second],
    );
    let state = await keptAndCounted(first);
    expect(state.kept).toEqual(state.counted);
    expect(state.kept).toMatchObject({
      emails: 40,
      sent: 35,
      delivered: 12,
      opened: 9,
      clicked: 1,
      bounced: 3,
      failed: 2,
      queued: 3,
      recipients: 60,
      pending: 17,
      skipped: 3,
    });
    state = await keptAndCounted(second);
    expect(state.kept).toEqual(state.counted);
    expect(state.kept).toMatchObject({
      emails: 20,
      cancelled: 20,
      open_tracked: 20,
      sent: 0,
      unqueued_cancelled: 60,
    });

    // An email moved to the other campaign leaves one count for the other; deleted ones leave both.
    await sql.query(`UPDATE emails SET campaign_id = $2 WHERE id = $1`, [queued[0], second]);
    await sql.query(`DELETE FROM emails WHERE id = ANY($1::uuid[])`, [queued.slice(30, 34)]);
    await sql.query(
      `DELETE FROM campaign_recipients WHERE campaign_id = $1 AND contact_id = ANY($2::uuid[])`,
      [first, ids.slice(50, 55)],
    );
    for (const campaignId of campaignIds) {
      state = await keptAndCounted(campaignId);
      expect(state.kept).toEqual(state.counted);
    }
    expect((await keptAndCounted(first)).kept).toMatchObject({ emails: 35, recipients: 55 });
    expect((await keptAndCounted(second)).kept.emails).toBe(21);

    // The analytics read the same counts.
    const [top] = await topCampaigns(sql, { projectId, metric: 'sent', limit: 10 });
    expect(top).toMatchObject({ id: first, sent: (await keptAndCounted(first)).counted.sent });
  });

  it('writes nothing for statements that change no figure, and forgets a deleted campaign', async () => {
    const { projectId, ids, campaignIds } = await seedCampaigns(10, 1);
    const [campaignId] = campaignIds as [string];
    const emailIds = (await queueEmails(projectId, campaignId, ids)).map((r) => r.id);
    const versions = () =>
      sql.query<{ shard: number; xmin: string }>(
        'SELECT shard, xmin::text FROM campaign_figures WHERE campaign_id = $1 ORDER BY shard',
        [campaignId],
      );
    const before = await versions();
    // A lane's claim and a second open of an email never opened change no figure.
    await sql.query(
      `UPDATE emails SET claimed_by = gen_random_uuid(), claimed_until = now() + interval '1 minute'
        WHERE id = ANY($1::uuid[])`,
      [emailIds],
    );
    await sql.query(`UPDATE emails SET opened_at = coalesce(opened_at, NULL) WHERE id = $1`, [
      emailIds[0],
    ]);
    expect(await versions()).toEqual(before);

    await sql.query(`UPDATE campaign_recipients SET skip_reason = NULL WHERE campaign_id = $1`, [
      campaignId,
    ]);
    expect(await versions()).toEqual(before);

    // Deleting the campaign takes its counts (and its recipients, whose deletion adds none back);
    // its emails, changed or deleted after it, add none back either.
    await sql.query('DELETE FROM campaigns WHERE id = $1', [campaignId]);
    expect(await versions()).toEqual([]);
    await sql.query(
      `UPDATE emails SET status = 'SENT', sent_at = now() WHERE id = ANY($1::uuid[])`,
      [emailIds],
    );
    await sql.query(`DELETE FROM emails WHERE id = ANY($1::uuid[])`, [emailIds.slice(0, 3)]);
    expect(await versions()).toEqual([]);
  });

  it("answers a snapshot's counts, made or retried, from the kept figures", async () => {
    const { projectId, ids } = await seedProjectRows(sql, { name: 'snapshot', contacts: 10 });
    await sql.query('UPDATE contacts SET subscribed = false WHERE id = ANY($1::uuid[])', [
      ids.slice(0, 3),
    ]);
    const campaignId = randomUUID();
    await sql.query(
      `INSERT INTO campaigns (id, project_id, name, subject, body, from_address, audience_type, status,
                              started_at, created_at, updated_at)
       VALUES ($1, $2, 'Snapshot', 'Hi', '<p>Hi</p>', 'news@figures.example.test', 'ALL', 'SENDING',
               now(), now(), now())`,
      [campaignId, projectId],
    );
    // The first recipients committed before the snapshot, as the early first batch does.
    await sql.query(
      `INSERT INTO campaign_recipients (campaign_id, contact_id, status)
       SELECT $1, id, 'PENDING' FROM unnest($2::uuid[]) AS id`,
      [campaignId, ids.slice(8)],
    );
    const snapshot = () => snapshotRecipients(sql, { campaignId, projectId, audience: undefined });
    expect(await snapshot()).toEqual({ recipients: 10, skipped: 3 });
    // A retried attempt finds the snapshot made and answers the same counts.
    expect(await snapshot()).toEqual({ recipients: 10, skipped: 3 });
    const { kept, counted } = await keptAndCounted(campaignId);
    expect(kept).toEqual(counted);
  });

  it("zeroes a table's figures when it is truncated, and keeps the other table's", async () => {
    // In a database of its own: TRUNCATE locks the whole table, which every test file shares.
    await withScratchDatabase(async (db) => {
      const { projectId, ids, campaignIds } = await seedCampaigns(4, 1, db);
      const [campaignId] = campaignIds as [string];
      await queueEmails(projectId, campaignId, ids, db);
      await db.query('TRUNCATE emails CASCADE');
      expect(await campaignStats(db, { campaignId })).toMatchObject({
        emails: 0,
        queued: 0,
        open_tracked: 0,
        recipients: 4,
        pending: 4,
      });
      await db.query('TRUNCATE campaign_recipients');
      expect(await campaignStats(db, { campaignId })).toMatchObject({ recipients: 0, pending: 0 });
      await queueEmails(projectId, campaignId, ids.slice(0, 2), db);
      expect(await campaignStats(db, { campaignId })).toMatchObject({ emails: 2, queued: 2 });
    });
  });
});
