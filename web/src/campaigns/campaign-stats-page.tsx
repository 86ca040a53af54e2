import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { campaignSendWorkflowId } from '../../../domain/campaigns/campaign-ids.pure';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Card } from '../components/card';
import { PageHeader } from '../components/page-header';
import { ProgressBar } from '../components/progress-bar';
import { ErrorState, Loading } from '../components/states';
import { TemporalRunLink } from '../components/temporal-link';
import { formatDate, formatNumber } from '../lib/format';
import { BackToCampaigns } from './campaign-page';
import { campaignKey, isLive, useCampaign, type CampaignStats } from './campaign-queries';
import { StatusBadge } from './status-badge';

const FIGURES = [
  ['delivered', 'Delivered'],
  ['opened', 'Opened'],
  ['clicked', 'Clicked'],
  ['bounced', 'Bounced'],
  ['complained', 'Complained'],
  ['unsubscribed', 'Unsubscribed'],
  ['skipped', 'Skipped'],
] as const satisfies readonly (readonly [keyof CampaignStats, string])[];

const FUNNEL = [
  ['recipients', 'Audience'],
  ['sent', 'Sent'],
  ['delivered', 'Delivered'],
  ['opened', 'Opened'],
  ['clicked', 'Clicked'],
] as const satisfies readonly (readonly [keyof CampaignStats, string])[];

/** How far a send has come: recipients settled one way or another, of all recipients. */
const settled = (s: CampaignStats) => s.recipients - s.pending - s.queued;

/** The figures that are only counted when the campaign's emails tracked them. */
const RATE_OF: Partial<Record<keyof CampaignStats, 'openRate' | 'clickRate'>> = {
  opened: 'openRate',
  clicked: 'clickRate',
};

/** Whether the campaign's emails did not track this figure (its rate is null). */
const untracked = (s: CampaignStats, key: keyof CampaignStats) => {
  const rate = RATE_OF[key];
  return rate !== undefined && s[rate] === null;
};

const percent = (fraction: number | null) =>
  fraction === null ? 'not tracked' : `${(fraction * 100).toFixed(1)}%`;

/** Which of opens and clicks the campaign's emails did not track, in words. */
function untrackedNote(s: CampaignStats): string | undefined {
  const opens = s.openRate === null;
  const clicks = s.clickRate === null;
  if (!opens && !clicks) return undefined;
  const what = opens && clicks ? 'Opens and clicks were' : opens ? 'Opens were' : 'Clicks were';
  return `${what} not tracked: tracking was off for this campaign's emails (on the campaign, its template or the project), so there is nothing to count.`;
}

export function CampaignStatsPage() {
  const { campaignId } = useParams({ from: '/app/campaigns/$campaignId/stats' });
  const projectId = useProjectId();
  const campaign = useCampaign(campaignId);
  const live = campaign.data ? isLive(campaign.data.status) : false;
  const stats = useQuery({
    // `live` in the key: when the send ends, the figures are fetched once more. Polling alone
    // stopped at the status poll that saw the end, and kept figures from up to a second before
    // it (a skipped or sent count short, for good).
    queryKey: [...campaignKey(projectId, campaignId), 'stats', live],
    queryFn: async () =>
      (await unwrap(api.GET('/campaigns/{id}/stats', { params: { path: { id: campaignId } } })))
        .data,
    refetchInterval: live ? 1000 : false,
    placeholderData: keepPreviousData,
  });
  if (campaign.isPending || stats.isPending) return <Loading label="Loading the stats" />;
  if (campaign.isError) return <ErrorState error={campaign.error} />;
  if (stats.isError) return <ErrorState error={stats.error} />;
  const c = campaign.data;
  const s = stats.data;
  const widest = Math.max(1, s.recipients);
  const note = untrackedNote(s);

  return (
    <>
      <BackToCampaigns />
      <PageHeader
        title={`${c.name}: stats`}
        description={
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={c.status} />
            {c.status === 'SCHEDULED' && c.scheduledAt
              ? `sends ${formatDate(c.scheduledAt)}`
              : null}
            {[
              c.startedAt ? `started ${formatDate(c.startedAt)}` : '',
              c.finishedAt ? `finished ${formatDate(c.finishedAt)}` : '',
            ]
              .filter(Boolean)
              .join(' · ') || null}
          </span>
        }
        actions={
          <Link
            to="/campaigns/$campaignId"
            params={{ campaignId: c.id }}
            className="inline-flex min-h-9 items-center rounded-md border border-line bg-panel px-3.5 text-sm font-medium hover:bg-surface"
          >
            Open the campaign
          </Link>
        }
      />
      <div className="flex flex-col gap-6">
        {c.status === 'SENDING' || c.status === 'SCHEDULED' ? (
          <Card title="Progress">
            <ProgressBar label="Send progress" max={widest} value={settled(s)} />
            <p className="mt-2 text-sm text-muted" aria-live="polite">
              {c.status === 'SCHEDULED'
                ? 'Waiting for its time.'
                : `${formatNumber(settled(s))} of ${formatNumber(s.recipients)} handled · ${formatNumber(s.queued)} waiting for SMTP`}
            </p>
          </Card>
        ) : null}
        {note ? (
          <p role="note" className="rounded-lg border border-line bg-surface px-4 py-3 text-sm">
            {note}
          </p>
        ) : null}
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7">
          {FIGURES.map(([key, label]) => (
            <div key={key} className="rounded-lg border border-line bg-panel p-3">
              <dt className="text-xs text-muted">{label}</dt>
              {untracked(s, key) ? (
                <dd
                  data-testid={`stat-${key}`}
                  className="flex min-h-8 items-center text-sm font-medium text-muted"
                >
                  Not tracked
                </dd>
              ) : (
                <dd data-testid={`stat-${key}`} className="text-2xl font-semibold tabular-nums">
                  {formatNumber(s[key])}
                </dd>
              )}
            </div>
          ))}
        </dl>
        <Card title="Funnel">
          <ol className="flex flex-col gap-2">
            {FUNNEL.map(([key, label]) => (
              <li key={key} className="grid grid-cols-[6rem_1fr_6rem] items-center gap-3 text-sm">
                <span>{label}</span>
                {untracked(s, key) ? (
                  <>
                    <span className="h-5 rounded border border-dashed border-line" />
                    <span className="text-right text-muted">Not tracked</span>
                  </>
                ) : (
                  <>
                    <span className="h-5 rounded bg-surface">
                      <span
                        className="block h-5 rounded bg-accent/70"
                        style={{ width: `${(100 * s[key]) / widest}%` }}
                      />
                    </span>
                    <span className="text-right tabular-nums">{formatNumber(s[key])}</span>
                  </>
                )}
              </li>
            ))}
          </ol>
          <p className="mt-3 text-xs text-muted" data-testid="stat-rates">
            Open rate {percent(s.openRate)} · click rate {percent(s.clickRate)} · bounce rate{' '}
            {percent(s.bounceRate)} (of sent)
          </p>
        </Card>
        <p>
          <TemporalRunLink workflowId={campaignSendWorkflowId(c.id)} />
        </p>
      </div>
    </>
  );
}
