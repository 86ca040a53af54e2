import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Card } from '../components/card';
import { STATUS_TONE, type Message } from './message-types';

const linkClass = 'text-accent underline underline-offset-2';

function Row({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="grid gap-0.5 border-b border-line py-2 last:border-0 sm:grid-cols-[8rem_minmax(0,1fr)] sm:gap-3">
      <dt className="text-muted">{term}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

const address = (email: string | null, name: string | null): string =>
  email ? (name ? `${name} <${email}>` : email) : '—';

/** Who the email went to and from, its state, and what sent it. */
export function MessageDetails({ message }: { message: Message }) {
  const source = message.campaign
    ? `Campaign “${message.campaign.name}”`
    : message.workflow
      ? `Workflow “${message.workflow.name}”`
      : 'Transactional send (POST /v1/send)';
  return (
    <Card title="Details">
      <dl className="text-sm">
        <Row term="To">
          {address(message.to.email, message.to.name)}
          {message.contact ? (
            <>
              {' · '}
              <Link
                to="/contacts/$contactId"
                params={{ contactId: message.contact.id }}
                className={linkClass}
              >
                View contact
              </Link>
            </>
          ) : null}
        </Row>
        <Row term="From">{address(message.from.email, message.from.name)}</Row>
        {message.replyTo ? <Row term="Reply-To">{message.replyTo}</Row> : null}
        <Row term="Subject">{message.subject}</Row>
        <Row term="Status">
          <span className={`font-medium ${STATUS_TONE[message.status]}`}>{message.status}</span>
          <span className="text-muted"> · {message.type.toLowerCase()}</span>
        </Row>
        {message.error ? <Row term="Error">{message.error}</Row> : null}
        {message.suppressionReason ? (
          <Row term="Suppressed">{message.suppressionReason}</Row>
        ) : null}
        <Row term="Source">{source}</Row>
        {message.template ? (
          <Row term="Template">
            <Link
              to="/templates/$templateId"
              params={{ templateId: message.template.id }}
              className={linkClass}
            >
              {message.template.name}
            </Link>
          </Row>
        ) : null}
        {message.messageId ? (
          <Row term="Message-ID">
            <code className="font-mono text-xs break-all">{message.messageId}</code>
          </Row>
        ) : null}
      </dl>
    </Card>
  );
}
