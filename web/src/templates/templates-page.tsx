import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { EmptyState } from '../components/empty-state';
import { PageHeader } from '../components/page-header';
import { Select } from '../components/select';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { formatDate } from '../lib/format';
import { NewTemplateDialog } from './new-template-dialog';

type Template = ResponseOf<'/templates', 'get'>['templates'][number];
type TypeFilter = '' | Template['type'];

export function TemplatesPage() {
  const projectId = useProjectId();
  const [type, setType] = useState<TypeFilter>('');
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const templates = useQuery({
    queryKey: ['project', projectId, 'templates', type, search],
    queryFn: () =>
      unwrap(
        api.GET('/templates', {
          params: { query: { limit: 100, type: type || undefined, search: search || undefined } },
        }),
      ),
    placeholderData: (previous) => previous,
  });

  return (
    <>
      <PageHeader
        title="Templates"
        description="Emails you send by id from the API, campaigns and workflows."
        actions={<Button onClick={() => setCreating(true)}>New template</Button>}
      />
      <div className="mb-4 flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="template-search" className="text-sm font-medium">
            Search
          </label>
          <input
            id="template-search"
            type="search"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            placeholder="Template name"
            className="min-h-9 rounded-md border border-line bg-panel px-3 text-sm"
          />
        </div>
        <Select
          label="Type"
          value={type}
          onChange={(e) => setType(e.target.value as TypeFilter)}
          options={[
            { value: '', label: 'All types' },
            { value: 'MARKETING', label: 'Marketing' },
            { value: 'TRANSACTIONAL', label: 'Transactional' },
          ]}
        />
      </div>
      {templates.isPending ? (
        <Loading label="Loading templates" />
      ) : templates.isError ? (
        <ErrorState error={templates.error} />
      ) : templates.data.templates.length === 0 ? (
        <EmptyState
          title={search || type ? 'No template matches' : 'No templates yet'}
          action={
            search || type ? undefined : (
              <Button onClick={() => setCreating(true)}>Write a template</Button>
            )
          }
        >
          {search || type
            ? 'Try another name or type.'
            : 'A template needs a sender on a verified domain.'}
        </EmptyState>
      ) : (
        <Table<Template>
          caption="Templates"
          rows={templates.data.templates}
          rowKey={(t) => t.id}
          columns={[
            {
              header: 'Name',
              cell: (t) => (
                <Link
                  to="/templates/$templateId"
                  params={{ templateId: t.id }}
                  className="font-medium text-accent hover:underline"
                >
                  {t.name}
                </Link>
              ),
            },
            {
              header: 'Subject',
              cell: (t) => <span className="line-clamp-1">{t.subject}</span>,
              wide: true,
            },
            { header: 'Type', cell: (t) => t.type.toLowerCase() },
            { header: 'Updated', cell: (t) => formatDate(t.updatedAt), wide: true },
          ]}
        />
      )}
      <NewTemplateDialog open={creating} onOpenChange={setCreating} />
    </>
  );
}
