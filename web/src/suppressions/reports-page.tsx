import { useState } from 'react';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { formatNumber } from '../lib/format';
import { isOutcome, OUTCOME_LABELS, type ReportOutcome } from './report-labels';
import { ReportsTable } from './reports-table';
import { SuppressionsTabs } from './suppressions-tabs';
import { useDeliveryReports } from './use-delivery-reports';

const OUTCOME_OPTIONS = [
  { value: '', label: 'All outcomes' },
  ...Object.entries(OUTCOME_LABELS).map(([value, label]) => ({ value, label })),
];

/**
 * Every message that reached the project's return path: bounce and complaint reports with what
 * became of each, and the ones that changed nothing (undetermined ones are for a person to read).
 */
export function ReportsPage() {
  const projectId = useProjectId();
  const [outcome, setOutcome] = useState<ReportOutcome | ''>('');
  const list = useDeliveryReports(projectId, outcome);
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  const total = list.data?.pages[0]?.total;
  const filtered = outcome !== '';

  return (
    <>
      <PageHeader
        title="Suppressions"
        description={
          total === undefined || (total === 0 && !filtered)
            ? 'Bounce and complaint reports that mail systems sent back to your return path.'
            : `${formatNumber(total)} ${filtered ? 'matching' : 'reports'}, newest first`
        }
      />
      <SuppressionsTabs />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <Select
          label="Outcome"
          value={outcome}
          onChange={(e) => setOutcome(isOutcome(e.target.value) ? e.target.value : '')}
          options={OUTCOME_OPTIONS}
        />
      </div>
      {list.isPending ? (
        <Loading label="Loading delivery reports" />
      ) : list.isError ? (
        <ErrorState error={list.error} />
      ) : rows.length === 0 ? (
        <EmptyState title={filtered ? 'No report with this outcome' : 'No delivery reports yet'}>
          {filtered
            ? 'Try another outcome.'
            : 'When a mail system bounces an email or its recipient reports it as spam, the report comes back to the domain’s return path and is listed here with what it did. It needs the return-path records of the domain in place.'}
        </EmptyState>
      ) : (
        <>
          <ReportsTable rows={rows} />
          {list.hasNextPage ? (
            <div className="mt-4 flex justify-center">
              <Button
                variant="secondary"
                busy={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                Load more
              </Button>
            </div>
          ) : null}
        </>
      )}
    </>
  );
}
