import { Link } from '@tanstack/react-router';
import { formatDate } from '../lib/format';
import type { ActivityItem } from './activity-types';
import { reportIdOf } from './message-types';
import { ReportLink } from './report-link';
import { TypeBadge } from './type-badge';

const linkClass = 'text-accent underline-offset-2 hover:underline';

/** One feed item: what happened, to which email and contact, from which campaign, when. */
export function ActivityRow({ item }: { item: ActivityItem }) {
  const subject = item.subject || '(no subject)';
  const source = item.campaign
    ? `Campaign: ${item.campaign.name}`
    : item.workflow
      ? `Workflow: ${item.workflow.name}`
      : item.type === 'inbound'
        ? 'Inbound mail'
        : 'Transactional';
  const reportId = reportIdOf(item.data);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)_auto] items-center gap-x-3 gap-y-1 px-4 py-3 text-sm md:grid-cols-[7rem_minmax(0,1fr)_minmax(0,14rem)_11rem]">
      <TypeBadge type={item.type} />
      <time dateTime={item.occurredAt} className="text-xs text-muted md:order-last md:text-right">
        {formatDate(item.occurredAt)}
      </time>
      <div className="col-span-2 min-w-0 md:col-span-1">
        <p className="truncate font-medium">
          {item.emailId ? (
            <Link
              to="/activity/messages/$messageId"
              params={{ messageId: item.emailId }}
              className={linkClass}
            >
              {subject}
            </Link>
          ) : (
            subject
          )}
        </p>
        <p className="truncate text-xs text-muted">
          {item.type === 'inbound' ? 'From ' : 'To '}
          <Link
            to="/contacts/$contactId"
            params={{ contactId: item.contact.id }}
            className={linkClass}
          >
            {item.contact.email ?? 'a deleted contact'}
          </Link>
        </p>
      </div>
      <p className="col-span-2 truncate text-xs text-muted md:col-span-1 md:text-sm">
        {source}
        {reportId ? (
          <>
            {' · '}
            <ReportLink
              reportId={reportId}
              label={`View the report behind this ${item.type === 'complained' ? 'complaint' : 'bounce'} of ${item.contact.email ?? 'a deleted contact'}`}
            />
          </>
        ) : null}
      </p>
    </div>
  );
}
