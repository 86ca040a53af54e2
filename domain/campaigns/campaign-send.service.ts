import { setTimeout as sleep } from 'node:timers/promises';
import {
  countRecipients,
  findCampaignAudience,
  snapshotFirstRecipients,
  snapshotRecipients,
  type CampaignAudienceRow,
  type SnapshotCounts,
} from '../../db/sql/campaign-audience.sql.js';
import {
  beginCampaignSending,
  campaignProgress,
  failCampaign,
  findSenderDomainId,
  finishCampaignSending,
  queueCampaignBatch,
} from '../../db/sql/campaign-send.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { capOf, chargeCap } from '../billing/billing.service.js';
import { senderHost } from '../domains/sender-domain.pure.js';
import { DomainError } from '../shared/errors.js';
import type { Filter } from '../segments/filter/ast.pure.js';
import type { SqlFragment } from '../segments/filter/compile-sql.pure.js';
import { compileForProject } from '../segments/segments.service.js';
import type { QueueNotifier } from '../shared/ports.js';
import type { AudienceType, CampaignStatus } from './campaign-status.pure.js';
import { nextPollWaitMs } from './progress-poll.pure.js';

// The steps of a campaign's send (temporal/workflows/campaign-send.workflow.ts), each safe to
// repeat: the campaign's status and its rows say how far it came.

/**
 * The send begins (a scheduled one at its time): SCHEDULED becomes SENDING. Answers the sending
 * domain when it may go on; a campaign cancelled meanwhile (or gone) answers its status only, and
 * one whose domain is no longer verified ends FAILED.
 */
export async function beginCampaignSend({
  sql,
  campaignId,
}: {
  sql: Sql;
  campaignId: string;
}): Promise<{ status: CampaignStatus | null; domainId?: string }> {
  const campaign = await beginCampaignSending(sql, { campaignId });
  if (!campaign || campaign.status !== 'SENDING') return { status: campaign?.status ?? null };
  const domain = senderHost(campaign.from_address);
  const domainId = await findSenderDomainId(sql, { projectId: campaign.project_id, host: domain });
  if (!domainId) {
    await failCampaign(sql, {
      campaignId,
      error: `${domain} is no longer a verified domain of this project`,
    });
    return { status: 'FAILED' };
  }
  return { status: 'SENDING', domainId };
}

/** The audience as SQL over `contacts c`; undefined for every contact. */
export async function audienceOf(
  sql: Sql,
  {
    projectId,
    audienceType,
    segmentId,
    filter,
  }: {
    projectId: string;
    audienceType: AudienceType;
    segmentId: string | null;
    filter: Filter | null;
  },
): Promise<SqlFragment | undefined> {
  if (audienceType === 'ALL') return undefined;
  const audience: Filter =
    audienceType === 'SEGMENT'
      ? { operator: 'AND', conditions: [{ field: `segment.${segmentId}`, operator: 'memberOf' }] }
      : (filter as Filter);
  return compileForProject(sql, { projectId, filter: audience });
}

/** Recipients frozen and committed ahead of the rest of a large audience (see sendFirstEmails). */
const FIRST_RECIPIENTS = 500;
/** The first batch queued: small, so the lanes start on it while the rest is queued. */
const FIRST_BATCH = 50;

/**
 * Freezes the audience into recipient rows, once (see snapshotRecipients); undefined when the
 * campaign is no longer SENDING. With `early`, a campaign without a cap to charge gets its first
 * emails queued before the rest of its audience is frozen, so its first email does not wait for
 * the whole snapshot.
 */
export async function snapshotCampaignAudience({
  sql,
  campaignId,
  early,
}: {
  sql: Sql;
  campaignId: string;
  early?: { notifier: QueueNotifier; deliveryQueue: string };
}): Promise<SnapshotCounts | undefined> {
  const campaign = await findCampaignAudience(sql, { campaignId });
  if (!campaign) return undefined;
  const audience = await audienceOf(sql, {
    projectId: campaign.project_id,
    audienceType: campaign.audience_type,
    segmentId: campaign.segment_id,
    filter: campaign.audience_filter,
  });
  const projectId = campaign.project_id;
  const cap = await capOf({ sql, projectId, category: 'campaigns' });
  if (early && cap === undefined && !campaign.snapshot_at) {
    await sendFirstEmails({ sql, campaign, campaignId, audience, ...early });
  }
  try {
    return await snapshotRecipients(sql, {
      campaignId,
      projectId,
      audience,
      charge:
        cap === undefined
          ? undefined
          : (tx, pending) =>
              chargeCap({ tx, projectId, category: 'campaigns', count: pending, cap }),
    });
  } catch (error) {
    // The audience grew past the cap since the send was accepted: nothing is sent. The run
    // then finds the campaign FAILED and ends.
    if (!(error instanceof DomainError) || error.code !== 'BILLING_LIMIT_EXCEEDED') throw error;
    await failCampaign(sql, { campaignId, error: error.message });
    return countRecipients(sql, { campaignId });
  }
}

/**
 * Commits the first FIRST_RECIPIENTS recipients and queues a first batch of their emails for
 * the delivery lanes. The campaign's status guards both statements (a cancel meanwhile queues
 * nothing), and a repeated attempt adds no recipient or email twice (their keys).
 */
async function sendFirstEmails({
  sql,
  campaign,
  campaignId,
  audience,
  notifier,
  deliveryQueue,
}: {
  sql: Sql;
  campaign: CampaignAudienceRow;
  campaignId: string;
  audience: SqlFragment | undefined;
  notifier: QueueNotifier;
  deliveryQueue: string;
}): Promise<void> {
  const projectId = campaign.project_id;
  const added = await snapshotFirstRecipients(sql, {
    campaignId,
    projectId,
    audience,
    limit: FIRST_RECIPIENTS,
  });
  if (added === 0) return;
  const host = senderHost(campaign.from_address);
  const domainId = await findSenderDomainId(sql, { projectId, host });
  // The domain was verified when the send began; if it no longer is, the queue step decides.
  if (!domainId) return;
  const batch = await queueCampaignBatch(sql, {
    campaignId,
    domainId,
    deliveryQueue,
    limit: FIRST_BATCH,
  });
  if (batch.queued > 0) notifier.queued(deliveryQueue);
}

/**
 * Queues the recipients' emails batch by batch (each batch one statement, see
 * queueCampaignBatch) and wakes the delivery lanes after each, until none is left or the campaign
 * stops SENDING. Answers how many it queued in this call.
 */
export async function queueCampaignEmails({
  sql,
  notifier,
  campaignId,
  domainId,
  deliveryQueue,
  batchSize,
  progress,
}: {
  sql: Sql;
  notifier: QueueNotifier;
  campaignId: string;
  domainId: string;
  deliveryQueue: string;
  batchSize: number;
  progress?: (queued: number) => void;
}): Promise<{ queued: number }> {
  let queued = 0;
  // A small first batch: the lanes start on the first emails while the rest are queued.
  let limit = Math.min(batchSize, FIRST_BATCH);
  for (;;) {
    const batch = await queueCampaignBatch(sql, { campaignId, domainId, deliveryQueue, limit });
    limit = batchSize;
    if (batch.queued > 0) notifier.queued(deliveryQueue);
    queued += batch.queued;
    progress?.(queued);
    if (batch.taken === 0) return { queued };
  }
}

/**
 * Watches the send until nothing is left to queue or deliver (`done`), the campaign stops
 * SENDING (cancelled), or `forMs` passes (`done: false`, so the run can continue as new). Polls
 * every `pollMs`, or less often when a poll costs more than its share of that (a big send's
 * counts; see progress-poll.pure.ts); `signal` ends a wait at once.
 */
export async function watchCampaignSend({
  sql,
  campaignId,
  forMs,
  pollMs,
  progress,
  signal,
}: {
  sql: Sql;
  campaignId: string;
  forMs: number;
  pollMs: number;
  progress?: (state: { pending: number; queued: number }) => void;
  signal?: AbortSignal;
}): Promise<{ status: CampaignStatus | null; done: boolean }> {
  const until = Date.now() + forMs;
  for (;;) {
    const started = performance.now();
    const state = await campaignProgress(sql, { campaignId });
    const lastPollMs = performance.now() - started;
    progress?.(state);
    if (state.status !== 'SENDING') return { status: state.status, done: false };
    if (state.pending === 0 && state.queued === 0) return { status: 'SENDING', done: true };
    if (Date.now() >= until || signal?.aborted) return { status: 'SENDING', done: false };
    // A cancelled activity stops waiting at once (the next round sees the signal).
    await sleep(nextPollWaitMs({ pollMs, lastPollMs, leftMs: until - Date.now() }), undefined, {
      signal,
    }).catch(() => undefined);
  }
}

/** SENDING becomes SENT; answers the status the campaign ends in. */
export async function finishCampaignSend({
  sql,
  campaignId,
}: {
  sql: Sql;
  campaignId: string;
}): Promise<CampaignStatus | null> {
  return finishCampaignSending(sql, { campaignId });
}
