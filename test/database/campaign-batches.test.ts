import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { queueCampaignBatch } from '../../db/sql/campaign-send.sql.js';
import { watchCampaignSend } from '../../domain/campaigns/campaign-send.service.js';
import { databasePool, seedProjectRows } from '../helpers/database.js';

// A campaign batch (queueCampaignBatch) takes the next PENDING recipients in one statement: an
// email row for each deliverable one and the recipient marked with it, SKIPPED with the reason
// otherwise. The statement finds its rows by ctid and makes the email ids itself, so these tests
// check what that must keep: each recipient marked once with the email made for it, concurrent
// batches taking disjoint recipients, and a recipient whose email already exists marked with
// that email and given no second one.

const { sql } = databasePool({ max: 3 });

async function sendingCampaign(contacts: number): Promise<{
  campaignId: string;
  domainId: string;
  projectId: string;
  ids: string[];
}> {
  const { projectId, ids } = await seedProjectRows(sql, { name: 'batches', contacts });
  const domainId = randomUUID();
  await sql.query(
    `INSERT INTO domains (id, project_id, domain, selector, dkim_public_key, dkim_private_key, status, created_at)
     VALUES ($1, $2, $3, 'mw', 'public', 'private', 'VERIFIED', now())`,
    [domainId, projectId, `batches-${domainId}.example.test`],
  );
  const campaignId = randomUUID();
  await sql.query(
    `INSERT INTO campaigns (id, project_id, name, subject, body, from_address, audience_type, status, created_at, updated_at)
     VALUES ($1, $2, 'Batches', 'Hello {{ email }}', '<p>Hi</p>', $3, 'ALL', 'SENDING', now(), now())`,
    [campaignId, projectId, `news@batches-${domainId}.example.test`],
  );
  await sql.query(
    `INSERT INTO campaign_recipients (campaign_id, contact_id, status)
     SELECT $1, id, 'PENDING' FROM unnest($2::uuid[]) AS id`,
    [campaignId, ids],
  );
  return { campaignId, domainId, projectId, ids };
}

const batch = (campaignId: string, domainId: string, limit: number) =>
  queueCampaignBatch(sql, { campaignId, domainId, deliveryQueue: 'batches-test', limit });

/** Each recipient with its status, reason and email, and the email's own contact. */
async function recipients(campaignId: string) {
  return sql.query<{
    contact_id: string;
    status: string;
    skip_reason: string | null;
    email_id: string | null;
    email_contact: string | null;
  }>(
    `SELECT r.contact_id, r.status, r.skip_reason, r.email_id, e.contact_id AS email_contact
       FROM campaign_recipients r LEFT JOIN emails e ON e.id = r.email_id
      WHERE r.campaign_id = $1 ORDER BY r.contact_id`,
    [campaignId],
  );
}

const emailCount = async (campaignId: string): Promise<number> => {
  const [row] = await sql.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM emails WHERE campaign_id = $1',
    [campaignId],
  );
  return row?.n ?? 0;
};

describe('campaign batches', () => {
  it('queue the next recipients in key order, each marked with the email made for it', async () => {
    const { campaignId, domainId, ids } = await sendingCampaign(250);
    // One unsubscribes and one is deleted after the snapshot: both are skipped with the reason.
    const sorted = [...ids].sort();
    await sql.query('UPDATE contacts SET subscribed = false WHERE id = $1', [sorted[3]]);
    await sql.query('DELETE FROM contacts WHERE id = $1', [sorted[7]]);

    expect(await batch(campaignId, domainId, 100)).toEqual({ taken: 100, queued: 98 });
    const afterOne = await recipients(campaignId);
    expect(afterOne.slice(0, 100).every((r) => r.status !== 'PENDING')).toBe(true);
    expect(afterOne.slice(100).every((r) => r.status === 'PENDING')).toBe(true);

    expect(await batch(campaignId, domainId, 100)).toEqual({ taken: 100, queued: 100 });
    expect(await batch(campaignId, domainId, 100)).toEqual({ taken: 50, queued: 50 });
    expect(await batch(campaignId, domainId, 100)).toEqual({ taken: 0, queued: 0 });

    const rows = await recipients(campaignId);
    const skipped = rows.filter((r) => r.status === 'SKIPPED');
    expect(skipped.map((r) => [r.contact_id, r.skip_reason, r.email_id])).toEqual([
      [sorted[3], 'unsubscribed', null],
      [sorted[7], 'deleted', null],
    ]);
    const queued = rows.filter((r) => r.status === 'QUEUED');
    expect(queued).toHaveLength(248);
    // Every queued recipient points at an email of its own contact, and no email is left over.
    expect(queued.every((r) => r.email_contact === r.contact_id)).toBe(true);
    expect(new Set(queued.map((r) => r.email_id)).size).toBe(248);
    expect(await emailCount(campaignId)).toBe(248);
  });

  it('concurrent batches take disjoint recipients and together queue each once', async () => {
    const { campaignId, domainId } = await sendingCampaign(600);
    const taken: number[] = [];
    for (;;) {
      const results = await Promise.all([
        batch(campaignId, domainId, 80),
        batch(campaignId, domainId, 80),
        batch(campaignId, domainId, 80),
      ]);
      taken.push(...results.map((r) => r.taken));
      if (results.every((r) => r.taken === 0)) break;
    }
    expect(taken.reduce((a, b) => a + b, 0)).toBe(600);
    const rows = await recipients(campaignId);
    expect(rows.every((r) => r.status === 'QUEUED' && r.email_contact === r.contact_id)).toBe(true);
    expect(await emailCount(campaignId)).toBe(600);
  });

  it('a recipient whose email exists is marked with it and gets no second email', async () => {
    const { campaignId, domainId, projectId, ids } = await sendingCampaign(5);
    const contactId = [...ids].sort()[2] as string;
    const existing = randomUUID();
    await sql.query(
      `INSERT INTO emails (id, project_id, contact_id, domain_id, to_address, from_address, subject, body, type, status, headers, variables, attachment_ids, delivery_queue, created_at, campaign_id)
       VALUES ($1, $2, $3, $4, 'x@example.com', 'news@example.com', 's', 'b', 'MARKETING', 'QUEUED', '{}', '{}', '{}', 'batches-test', now(), $5)`,
      [existing, projectId, contactId, domainId, campaignId],
    );

    expect(await batch(campaignId, domainId, 10)).toEqual({ taken: 5, queued: 5 });
    const rows = await recipients(campaignId);
    expect(rows.find((r) => r.contact_id === contactId)).toMatchObject({
      status: 'QUEUED',
      email_id: existing,
    });
    expect(await emailCount(campaignId)).toBe(5);
  });

  it('a campaign no longer SENDING queues nothing', async () => {
    const { campaignId, domainId } = await sendingCampaign(3);
    await sql.query(`UPDATE campaigns SET status = 'CANCELLED' WHERE id = $1`, [campaignId]);
    expect(await batch(campaignId, domainId, 10)).toEqual({ taken: 0, queued: 0 });
    expect((await recipients(campaignId)).every((r) => r.status === 'PENDING')).toBe(true);
  });
});

// The watcher polls the campaign's progress until its send is done; its wait between polls grows
// with what a poll costs (progress-poll.pure.ts), so a cancelled activity must not sit it out.
describe('the campaign send watcher', () => {
  it('stops waiting between polls when its activity is cancelled', async () => {
    const { campaignId } = await sendingCampaign(3);
    const cancelled = new AbortController();
    const polls: { pending: number; queued: number }[] = [];
    const watched = await watchCampaignSend({
      sql,
      campaignId,
      forMs: 20 * 60_000,
      pollMs: 10 * 60_000,
      signal: cancelled.signal,
      // Cancelled once the watcher waits for its second poll.
      progress: (state) => {
        polls.push(state);
        if (polls.length === 1) setTimeout(() => cancelled.abort(), 50);
      },
    });
    expect(watched).toEqual({ status: 'SENDING', done: false });
    expect(polls).toMatchObject([
      { pending: 3, queued: 0 },
      { pending: 3, queued: 0 },
    ]);
  });

  it('is done once no recipient is pending and no email queued', async () => {
    const { campaignId } = await sendingCampaign(2);
    await sql.query(
      `UPDATE campaign_recipients SET status = 'SKIPPED', skip_reason = 'unsubscribed' WHERE campaign_id = $1`,
      [campaignId],
    );
    expect(await watchCampaignSend({ sql, campaignId, forMs: 60_000, pollMs: 10 })).toEqual({
      status: 'SENDING',
      done: true,
    });
  });
});
