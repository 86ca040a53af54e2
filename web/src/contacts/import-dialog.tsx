import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { ErrorState } from '../components/states';
import { previewCsv } from '../lib/csv-preview';
import { formatNumber } from '../lib/format';
import { ImportProgress } from './import-progress';

interface Chosen {
  file: File;
  preview: ReturnType<typeof previewCsv>;
}

/** Choose a CSV, see its columns and first rows, upload it, then watch the import job. */
export function ImportDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const projectId = useProjectId();
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Chosen>();
  const [jobId, setJobId] = useState<string>();
  const [uploading, setUploading] = useState(false);
  const [failure, setFailure] = useState<unknown>();

  const job = useQuery({
    queryKey: ['project', projectId, 'import', jobId],
    enabled: Boolean(jobId),
    queryFn: () =>
      unwrap(api.GET('/contacts/import/{jobId}', { params: { path: { jobId: jobId ?? '' } } })),
    refetchInterval: (q) =>
      q.state.data && ['COMPLETED', 'FAILED', 'CANCELLED'].includes(q.state.data.status)
        ? false
        : 500,
  });

  const close = (next: boolean) => {
    if (!next) {
      setChosen(undefined);
      setJobId(undefined);
      setFailure(undefined);
      void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[2] === 'contacts' });
    }
    onOpenChange(next);
  };

  const choose = async (file: File | undefined) => {
    setFailure(undefined);
    if (!file) return setChosen(undefined);
    setChosen({ file, preview: previewCsv(await file.slice(0, 64 * 1024).text()) });
  };

  const upload = async () => {
    if (!chosen) return;
    setUploading(true);
    setFailure(undefined);
    try {
      const form = new FormData();
      form.append('file', chosen.file, chosen.file.name);
      const accepted = await unwrap(
        api.POST('/contacts/import', {
          body: { file: chosen.file.name },
          bodySerializer: () => form,
        }),
      );
      setJobId(accepted.jobId);
    } catch (error) {
      setFailure(error);
    } finally {
      setUploading(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={close}
      title="Import contacts"
      description="A CSV file with an email column; other columns become contact fields."
    >
      <div className="flex flex-col gap-4">
        {failure ? <ErrorState error={failure} /> : null}
        {jobId ? (
          job.data ? (
            <ImportProgress job={job.data} />
          ) : job.isError ? (
            <ErrorState error={job.error} />
          ) : (
            <p role="status" className="text-sm text-muted">
              Starting the import…
            </p>
          )
        ) : (
          <>
            <div className="flex flex-col gap-1">
              <label htmlFor="csv-file" className="text-sm font-medium">
                CSV file
              </label>
              <input
                id="csv-file"
                type="file"
                accept=".csv,text/csv"
                onChange={(e) => void choose(e.target.files?.[0])}
                className="text-sm file:mr-3 file:rounded-md file:border file:border-line file:bg-panel file:px-3 file:py-1.5 file:text-fg"
              />
            </div>
            {chosen ? (
              <div>
                <p className="mb-2 text-sm">
                  {formatNumber(chosen.preview.lineCount)} rows, columns:{' '}
                  <strong>{chosen.preview.columns.join(', ')}</strong>
                </p>
                <div className="max-h-48 overflow-auto rounded border border-line">
                  <table className="w-full text-left text-xs">
                    <caption className="sr-only">First rows of the file</caption>
                    <thead>
                      <tr>
                        {chosen.preview.columns.map((c, i) => (
                          <th
                            key={i}
                            scope="col"
                            className="border-b border-line px-2 py-1 font-medium"
                          >
                            {c}
                          </th>
                        ))}
                      </tr>
                    </thead>
                    <tbody>
                      {chosen.preview.rows.map((row, r) => (
                        <tr key={r}>
                          {chosen.preview.columns.map((_, i) => (
                            <td key={i} className="px-2 py-1">
                              {row[i]}
                            </td>
                          ))}
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </div>
            ) : null}
          </>
        )}
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={() => close(false)}>
            {jobId ? 'Close' : 'Cancel'}
          </Button>
          {jobId ? null : (
            <Button disabled={!chosen} busy={uploading} onClick={() => void upload()}>
              Upload and import
            </Button>
          )}
        </div>
      </div>
    </Dialog>
  );
}
