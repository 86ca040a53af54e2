import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { api, unwrap } from '../api/client';
import { Card } from '../components/card';
import { CopyButton } from '../components/copy-button';

// The same key as the other readers of the installation's configuration: one request.
const configQuery = {
  queryKey: ['config'],
  queryFn: () => unwrap(api.GET('/config')),
  staleTime: Infinity,
};

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-1 sm:flex-row sm:items-center sm:gap-3">
      <dt className="w-28 shrink-0 text-sm font-medium">{label}</dt>
      <dd className="flex min-w-0 flex-1 flex-wrap items-center gap-2 text-sm">{children}</dd>
    </div>
  );
}

/**
 * Where apps that only speak SMTP send the project's mail (SMTP submission), when the
 * installation runs it: host, ports, any username and the secret key as the password.
 */
export function SmtpCard({ secretKey }: { secretKey: string }) {
  const config = useQuery(configQuery);
  const smtp = config.data?.smtpSubmission;
  if (!config.data?.features.smtp || !smtp) return null;
  return (
    <Card title="Sending over SMTP">
      <p className="mb-4 text-sm text-muted">
        Apps that only speak SMTP (WordPress, Laravel, Django, a help desk, nodemailer) send through
        this project like <code>POST /v1/send</code>: each recipient, Bcc included, becomes an email
        from a verified domain.
      </p>
      <dl className="flex flex-col gap-3">
        <Row label="Host">
          <code className="rounded bg-surface px-2 py-1 text-xs break-all">{smtp.host}</code>
          <CopyButton value={smtp.host} label="Copy host" />
        </Row>
        <Row label="Port">
          <span>
            {[
              smtp.port === null ? null : `${smtp.port} with STARTTLS`,
              smtp.tlsPort === null ? null : `${smtp.tlsPort} with TLS`,
            ]
              .filter(Boolean)
              .join(' · ')}
          </span>
        </Row>
        <Row label="Username">
          <span>
            Anything, such as <code className="rounded bg-surface px-1 text-xs">mailwright</code>
          </span>
        </Row>
        <Row label="Password">
          <span>
            The project&apos;s secret key{' '}
            <code className="rounded bg-surface px-1 text-xs break-all">{secretKey}</code>
          </span>
        </Row>
        <Row label="Certificate">
          <span className="text-xs break-all text-muted">
            SHA-256 <code>{smtp.certificateSha256}</code>
          </span>
        </Row>
      </dl>
      <p className="mt-4 text-xs text-muted">
        Login needs an encrypted connection first. The secret key is shown only when it is made;
        rotating the keys changes the password.
      </p>
    </Card>
  );
}
