import { ApiError } from '../api/client';

export function Loading({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 py-8 text-sm text-muted">
      <span
        aria-hidden
        className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
      />
      {label}…
    </div>
  );
}

/** The API's error envelope: its message, and its field errors when no form field shows them. */
export function ErrorState({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message : 'Something went wrong';
  const api = error instanceof ApiError ? error : undefined;
  return (
    <div
      role="alert"
      className="rounded-md border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger"
    >
      {message}
      {api ? <span className="ml-2 font-mono text-xs">({api.code})</span> : null}
      {api && api.fieldErrors.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {api.fieldErrors.map((f, i) => (
            <li key={i}>
              {f.field ? <span className="font-medium">{f.field}: </span> : null}
              {f.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
