import type { ReportedFailure } from './report-reading.pure.js';
import { statusIn } from './report-fields.pure.js';

const DIAGNOSTIC_MAX = 500;

/** Senders of bounces that are no DSN (MAILER-DAEMON@, postmaster@). */
export const isDaemonSender = (address: string | undefined): boolean =>
  /^(mailer-daemon|postmaster)@/i.test(address ?? '');

const BOUNCE_SUBJECT =
  /undeliver|not delivered|delivery (status notification|has failed|failure|failed)|returned mail|failure notice|mail delivery failed|delivery problem/i;

// Exchange / Office 365: "Remote Server returned '550 5.1.1 RESOLVER.ADR.RecipNotFound; ...'".
const EXCHANGE_REMOTE = /Remote Server returned '(\d{3})\s+([245]\.\d{1,3}\.\d{1,3})([^']*)'/i;

const ADDRESS =
  /[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+/gi;

/**
 * A bounce written for people (a MAILER-DAEMON or postmaster message, an Exchange "Delivery has
 * failed to these recipients"): an enhanced status in the text (5.x.x hard, 4.x.x soft) and the
 * addresses it names, each a candidate recipient (the email's own recipient is looked for among
 * them). Undefined when it does not look like a bounce or names no status.
 */
export function readPlainBounce({
  from,
  subject,
  text,
}: {
  from?: string;
  subject: string;
  text: string;
}): ReportedFailure[] | undefined {
  const exchange = EXCHANGE_REMOTE.exec(text);
  const looksLikeBounce =
    exchange !== null ||
    /delivery has failed to these recipients/i.test(text) ||
    isDaemonSender(from) ||
    BOUNCE_SUBJECT.test(subject);
  if (!looksLikeBounce) return undefined;
  const status = exchange?.[2] ?? statusIn(text);
  if (!status || status.startsWith('2')) return undefined;
  const line = exchange?.[0] ?? text.split(/\r?\n/).find((l) => l.includes(status)) ?? status;
  const recipients = [...new Set((text.match(ADDRESS) ?? []).map((a) => a.toLowerCase()))].filter(
    (a) => !isDaemonSender(a),
  );
  if (recipients.length === 0) return undefined;
  return recipients.map((recipient) => ({
    recipient,
    bounceType: status.startsWith('5') ? 'hard' : 'soft',
    status,
    diagnostic: line.trim().slice(0, DIAGNOSTIC_MAX),
  }));
}
