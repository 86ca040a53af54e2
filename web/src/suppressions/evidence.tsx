import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { evidenceOf, type Suppression } from './suppression-labels';

// Longer diagnostics are cut to one line, with the full text on hover and behind a toggle.
const LONG = 60;

/**
 * The SMTP code and enhanced status as chips, then the relay's or report's own words; `compact`
 * (under the address on a phone) shows nothing when there is no evidence.
 */
export function EvidenceCell({
  suppression,
  compact = false,
}: {
  suppression: Suppression;
  compact?: boolean;
}) {
  const { code, status, diagnostic, reportId } = evidenceOf(suppression.detail);
  const [open, setOpen] = useState(false);
  if (!code && !status && !diagnostic) {
    return compact ? null : <span className="text-muted">None recorded</span>;
  }
  const long = diagnostic !== undefined && diagnostic.length > LONG;
  return (
    <div className="flex max-w-56 min-w-0 flex-col items-start gap-1 md:max-w-64">
      {code || status ? (
        <div className="flex flex-wrap gap-1">
          {code ? (
            <code className="rounded bg-surface px-1.5 py-0.5 text-xs" title="SMTP reply code">
              {code}
            </code>
          ) : null}
          {status ? (
            <code className="rounded bg-surface px-1.5 py-0.5 text-xs" title="Enhanced status code">
              {status}
            </code>
          ) : null}
        </div>
      ) : null}
      {diagnostic ? (
        <p
          title={long && !open ? diagnostic : undefined}
          className={`w-full text-xs text-muted ${open ? 'break-words whitespace-pre-wrap' : 'truncate'}`}
        >
          {diagnostic}
        </p>
      ) : null}
      {long ? (
        <button
          type="button"
          aria-expanded={open}
          className="text-xs text-accent underline-offset-2 hover:underline"
          onClick={() => setOpen(!open)}
        >
          {open ? 'Show less' : 'Show full text'}
          <span className="sr-only"> of the evidence for {suppression.email}</span>
        </button>
      ) : null}
      {reportId ? (
        <Link
          to="/suppressions/reports/$reportId"
          params={{ reportId }}
          className="text-xs text-accent underline-offset-2 hover:underline"
        >
          View report<span className="sr-only"> behind {suppression.email}</span>
        </Link>
      ) : null}
    </div>
  );
}
