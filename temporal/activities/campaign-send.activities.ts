import type { SnapshotCounts } from '../../db/sql/campaign-audience.sql.js';
import {
  beginCampaignSend,
  finishCampaignSend,
  queueCampaignEmails,
  snapshotCampaignAudience,
  watchCampaignSend,
} from '../../domain/campaigns/campaign-send.service.js';
import type { CampaignStatus } from '../../domain/campaigns/campaign-status.pure.js';
import type { Sql } from '../../db/sql/sql.js';
import type { QueueNotifier } from '../../domain/shared/ports.js';
import { heartbeating } from './heartbeating.js';

/** The steps of a campaign's send: thin wrappers over domain/campaigns (see campaign-send.workflow.ts). */
export function createCampaignSendActivities({
  sql,
  emailNotifier,
  deliveryQueue,
  batchSize,
  watchSeconds,
  watchPollMs,
}: {
  sql: Sql;
  emailNotifier: QueueNotifier;
  /** The queue whose delivery lanes take the campaign's mail (this worker's). */
  deliveryQueue: string;
  /** Recipients queued per statement. */
  batchSize: number;
  /** The longest a watch runs, whatever the workflow asks (CAMPAIGN_WATCH_SECONDS). */
  watchSeconds: number;
  watchPollMs: number;
}) {
  return {
    async beginCampaignSend({
      campaignId,
    }: {
      campaignId: string;
    }): Promise<{ status: CampaignStatus | null; domainId?: string }> {
      return beginCampaignSend({ sql, campaignId });
    },
    async snapshotCampaignAudience({
      campaignId,
    }: {
      campaignId: string;
    }): Promise<SnapshotCounts | null> {
      return (
        (await heartbeating(() =>
          snapshotCampaignAudience({
            sql,
            campaignId,
            early: { notifier: emailNotifier, deliveryQueue },
          }),
        )) ?? null
      );
    },
    async queueCampaignEmails({
      campaignId,
      domainId,
    }: {
      campaignId: string;
      domainId: string;
    }): Promise<{ queued: number }> {
      return heartbeating((note) =>
        queueCampaignEmails({
          sql,
          notifier: emailNotifier,
          campaignId,
          domainId,
          deliveryQueue,
          batchSize,
          progress: (queued) => note({ queued }),
        }),
      );
    },
    async watchCampaignSend({
      campaignId,
      forSeconds,
    }: {
      campaignId: string;
      forSeconds: number;
    }): Promise<{ status: CampaignStatus | null; done: boolean }> {
      const forMs = Math.min(forSeconds, watchSeconds) * 1000;
      return heartbeating((note, context) =>
        watchCampaignSend({
          sql,
          campaignId,
          forMs,
          pollMs: Math.min(watchPollMs, forMs),
          progress: note,
          signal: context.cancellationSignal,
        }),
      );
    },
    async finishCampaignSend({
      campaignId,
    }: {
      campaignId: string;
    }): Promise<CampaignStatus | null> {
      return finishCampaignSend({ sql, campaignId });
    },
  };
}
