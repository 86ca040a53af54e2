import { useState } from 'react';
import { useProjectId } from '../api/use-project';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { GranularitySwitch } from './granularity-switch';
import { PERIODS, useAnalyticsView, windowOf, type Period } from './analytics-search';
import { TimeseriesCard } from './timeseries-card';
import { TopCampaignsCard } from './top-campaigns-card';
import { TopEventsCard } from './top-events-card';

export function AnalyticsPage() {
  const projectId = useProjectId();
  const { view, setView } = useAnalyticsView();
  // "Now" is taken once, so the window (and the queries' keys) hold still while the page is open.
  const [now] = useState(() => Date.now());
  const range = windowOf(view.period, view.granularity, now);
  const periodLabel = PERIODS.find((p) => p.value === view.period)?.label ?? '';

  return (
    <>
      <PageHeader
        title="Analytics"
        description="Mail sent, delivered, opened and clicked, your campaigns and tracked events."
      />
      <div className="mb-4 flex flex-wrap items-end gap-4">
        <Select
          label="Period"
          value={view.period}
          onChange={(e) => setView({ period: e.target.value as Period })}
          options={PERIODS}
        />
        <GranularitySwitch
          value={view.granularity}
          onChange={(granularity) => setView({ granularity })}
        />
      </div>
      <div className="flex flex-col gap-4">
        <TimeseriesCard
          projectId={projectId}
          range={range}
          granularity={view.granularity}
          periodLabel={periodLabel}
        />
        <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
          <TopCampaignsCard
            projectId={projectId}
            metric={view.metric}
            onMetric={(metric) => setView({ metric })}
          />
          <TopEventsCard projectId={projectId} range={range} />
        </div>
      </div>
    </>
  );
}
