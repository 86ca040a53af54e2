import { Link } from '@tanstack/react-router';

/** A link to the delivery report an event was read from (its evidence, as it arrived). */
export function ReportLink({ reportId, label }: { reportId: string; label: string }) {
  return (
    <Link
      to="/suppressions/reports/$reportId"
      params={{ reportId }}
      className="text-accent underline underline-offset-2"
      aria-label={label}
    >
      View report
    </Link>
  );
}
