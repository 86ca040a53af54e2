import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { Button } from '../components/button';
import { Select } from '../components/select';
import type { ActivityFilters } from './activity-search';
import { ACTIVITY_LABELS, isActivityType } from './activity-types';

/** The feed's filters: the types the project has, a contact (email or id), a campaign. */
export function ActivityFilterBar({
  projectId,
  filters,
  onChange,
}: {
  projectId: string;
  filters: ActivityFilters;
  onChange: (next: Partial<ActivityFilters>) => void;
}) {
  const types = useQuery({
    queryKey: ['project', projectId, 'activity-types'],
    queryFn: () => unwrap(api.GET('/activity/types')),
  });
  const campaigns = useQuery({
    queryKey: ['project', projectId, 'campaigns', 'filter-options'],
    queryFn: () => unwrap(api.GET('/campaigns', { params: { query: { limit: 100 } } })),
  });
  const [contact, setContact] = useState(filters.contact);

  const present: string[] = types.data?.types ?? [];
  const typeValues =
    filters.type && !present.includes(filters.type) ? [...present, filters.type] : present;
  const campaignList = campaigns.data?.data.campaigns ?? [];

  return (
    <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-end">
      <div className="grid grid-cols-2 gap-3 sm:flex sm:items-end">
        <Select
          label="Type"
          className="min-w-0"
          value={filters.type}
          onChange={(e) => onChange({ type: e.target.value })}
          options={[
            { value: '', label: 'All types' },
            ...typeValues.map((t) => ({
              value: t,
              label: isActivityType(t) ? ACTIVITY_LABELS[t] : t,
            })),
          ]}
        />
        <Select
          label="Campaign"
          className="min-w-0 sm:max-w-60"
          value={filters.campaign}
          onChange={(e) => onChange({ campaign: e.target.value })}
          disabled={campaigns.isPending}
          options={[
            { value: '', label: campaigns.isError ? 'Campaigns unavailable' : 'All campaigns' },
            ...campaignList.map((c) => ({ value: c.id, label: c.name })),
            ...(filters.campaign && !campaignList.some((c) => c.id === filters.campaign)
              ? [{ value: filters.campaign, label: 'Chosen campaign' }]
              : []),
          ]}
        />
      </div>
      <form
        role="search"
        aria-label="Filter by contact"
        className="flex min-w-0 flex-wrap items-end gap-2 sm:flex-1"
        onSubmit={(e) => {
          e.preventDefault();
          onChange({ contact: contact.trim() });
        }}
      >
        <div className="flex min-w-48 flex-1 flex-col gap-1 sm:max-w-sm">
          <label htmlFor="activity-contact" className="text-sm font-medium">
            Contact
          </label>
          <input
            id="activity-contact"
            type="search"
            value={contact}
            onChange={(e) => setContact(e.target.value)}
            placeholder="Email or contact id"
            className="min-h-9 rounded-md border border-line bg-panel px-3 text-sm text-fg placeholder:text-muted"
          />
        </div>
        <Button type="submit" variant="secondary">
          Filter
        </Button>
        {filters.type || filters.contact || filters.campaign ? (
          <Button
            variant="ghost"
            onClick={() => {
              setContact('');
              onChange({ type: '', contact: '', campaign: '' });
            }}
          >
            Clear filters
          </Button>
        ) : null}
      </form>
    </div>
  );
}
