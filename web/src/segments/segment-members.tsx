import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Card } from '../components/card';
import { ErrorState, Loading } from '../components/states';
import { Table } from '../components/table';
import { useToast } from '../components/toast';
import { formatDate, formatNumber } from '../lib/format';
import { segmentKey, useRefreshSegments, type Segment } from './segment-queries';

const PAGE_SIZE = 20;

/** The members page by page (live for a DYNAMIC segment); a STATIC one's list is edited here. */
export function SegmentMembers({ segment }: { segment: Segment }) {
  const projectId = useProjectId();
  const [page, setPage] = useState(1);
  const members = useQuery({
    queryKey: [...segmentKey(projectId, segment.id), 'members', page],
    queryFn: () =>
      unwrap(
        api.GET('/segments/{id}/contacts', {
          params: { path: { id: segment.id }, query: { page, pageSize: PAGE_SIZE } },
        }),
      ),
    placeholderData: keepPreviousData,
  });
  const isStatic = segment.type === 'STATIC';

  return (
    <Card
      title="Members"
      actions={
        members.data ? (
          <span className="text-sm text-muted" data-testid="members-total">
            {formatNumber(members.data.total)} in all
          </span>
        ) : null
      }
    >
      {isStatic ? <AddMembers segmentId={segment.id} /> : null}
      {members.isPending ? (
        <Loading label="Loading members" />
      ) : members.isError ? (
        <ErrorState error={members.error} />
      ) : members.data.data.length === 0 ? (
        <p className="py-4 text-sm text-muted">
          {isStatic
            ? 'No members yet: add them by email above.'
            : 'No contact matches the filter now.'}
        </p>
      ) : (
        <>
          <Table
            caption={`Members of ${segment.name}`}
            rows={members.data.data}
            rowKey={(c) => c.id}
            columns={[
              {
                header: 'Email',
                cell: (c) => (
                  <Link
                    to="/contacts/$contactId"
                    params={{ contactId: c.id }}
                    className="text-accent hover:underline"
                  >
                    {c.email}
                  </Link>
                ),
              },
              { header: 'Subscribed', cell: (c) => (c.subscribed ? 'Yes' : 'No'), wide: true },
              { header: 'Added', cell: (c) => formatDate(c.createdAt), wide: true },
              ...(isStatic
                ? [
                    {
                      header: 'Remove',
                      cell: (c: { email: string }) => (
                        <RemoveMember segmentId={segment.id} email={c.email} />
                      ),
                    },
                  ]
                : []),
            ]}
          />
          <nav aria-label="Member pages" className="mt-3 flex items-center justify-between text-sm">
            <Button
              variant="secondary"
              disabled={page <= 1}
              onClick={() => setPage((p) => Math.max(1, p - 1))}
            >
              Previous
            </Button>
            <span className="text-muted">
              Page {members.data.page} of {Math.max(1, members.data.totalPages)}
            </span>
            <Button
              variant="secondary"
              disabled={page >= members.data.totalPages}
              onClick={() => setPage((p) => p + 1)}
            >
              Next
            </Button>
          </nav>
        </>
      )}
    </Card>
  );
}

const emailsIn = (text: string) =>
  text
    .split(/[\s,;]+/)
    .map((e) => e.trim())
    .filter((e) => e !== '');

function AddMembers({ segmentId }: { segmentId: string }) {
  const toast = useToast();
  const refresh = useRefreshSegments();
  const [text, setText] = useState('');
  const [createMissing, setCreateMissing] = useState(false);
  const add = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/segments/{id}/members', {
          params: { path: { id: segmentId } },
          body: { emails: emailsIn(text), createMissing },
        }),
      ),
    onSuccess: async (result) => {
      setText('');
      await refresh();
      toast(
        `${result.added} added${result.created ? `, ${result.created} created` : ''}${
          result.notFound.length ? `; not found: ${result.notFound.join(', ')}` : ''
        }`,
        result.notFound.length ? 'error' : 'ok',
      );
    },
  });
  return (
    <form
      className="mb-4 flex flex-col gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (emailsIn(text).length > 0) add.mutate();
      }}
    >
      <label htmlFor="add-members" className="text-sm font-medium">
        Add members by email
      </label>
      <textarea
        id="add-members"
        value={text}
        onChange={(e) => setText(e.target.value)}
        placeholder="ada@example.com, grace@example.com"
        className="min-h-20 rounded-md border border-line bg-panel p-2 text-sm"
      />
      {add.isError ? <ErrorState error={add.error} /> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            className="size-4 accent-accent"
            checked={createMissing}
            onChange={(e) => setCreateMissing(e.target.checked)}
          />
          Create contacts that do not exist yet
        </label>
        <Button type="submit" busy={add.isPending} disabled={emailsIn(text).length === 0}>
          Add members
        </Button>
      </div>
    </form>
  );
}

function RemoveMember({ segmentId, email }: { segmentId: string; email: string }) {
  const toast = useToast();
  const refresh = useRefreshSegments();
  const remove = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/segments/{id}/members', {
          params: { path: { id: segmentId } },
          body: { emails: [email] },
        }),
      ),
    onSuccess: async () => {
      await refresh();
      toast(`${email} removed`);
    },
    onError: (error) => toast(error.message, 'error'),
  });
  return (
    <Button
      variant="ghost"
      busy={remove.isPending}
      aria-label={`Remove ${email}`}
      onClick={() => remove.mutate()}
    >
      Remove
    </Button>
  );
}
