// Raw messages as mail systems send them back to a return path (DSN, ARF, a MAILER-DAEMON text,
// an Exchange NDR, an out-of-office reply), for the report reader's tests.

const CRLF = '\r\n';
const lines = (...parts: string[]): string => parts.join(CRLF);

function original({ from, recipient }: { from: string; recipient: string }): string {
  return lines(
    `From: ${from}`,
    `To: ${recipient}`,
    'Subject: Return path',
    'Message-ID: <original@example.test>',
  );
}

export function dsnMessage({
  to,
  recipient,
  action = 'failed',
  status = '5.1.1',
  diagnostic = 'smtp; 550 5.1.1 <x>: Recipient address rejected: User unknown in virtual mailbox table',
}: {
  to: string;
  recipient: string;
  action?: string;
  status?: string;
  diagnostic?: string;
}): string {
  return lines(
    'From: MAILER-DAEMON@mx.remote.test (Mail Delivery System)',
    `To: ${to}`,
    'Subject: Undelivered Mail Returned to Sender',
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=delivery-status; boundary="B1"',
    '',
    '--B1',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.remote.test.',
    "I'm sorry to have to inform you that your message could not be delivered.",
    '',
    '--B1',
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.remote.test',
    'Arrival-Date: Mon, 1 Dec 2026 10:00:00 +0000',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    'Remote-MTA: dns; mx.remote.test',
    `Diagnostic-Code: ${diagnostic}`,
    '',
    '--B1',
    'Content-Type: text/rfc822-headers',
    '',
    original({ from: 'news@sender.test', recipient }),
    '',
    '--B1--',
    '',
  );
}

export function arfMessage({
  to,
  recipient,
  feedbackType = 'abuse',
}: {
  to: string;
  recipient?: string;
  feedbackType?: string;
}): string {
  return lines(
    'From: feedbackloop@isp.test',
    `To: ${to}`,
    'Subject: FW: Return path',
    'MIME-Version: 1.0',
    'Content-Type: multipart/report; report-type=feedback-report; boundary="A1"',
    '',
    '--A1',
    'Content-Type: text/plain',
    '',
    'This is an email abuse report for an email message received from IP 192.0.2.1.',
    '',
    '--A1',
    'Content-Type: message/feedback-report',
    '',
    `Feedback-Type: ${feedbackType}`,
    'User-Agent: SomeGenerator/1.0',
    'Version: 1',
    ...(recipient ? [`Original-Rcpt-To: <${recipient}>`] : []),
    'Source-IP: 192.0.2.1',
    '',
    '--A1',
    'Content-Type: message/rfc822',
    'Content-Disposition: inline',
    '',
    original({ from: 'news@sender.test', recipient: recipient ?? 'redacted@isp.test' }),
    '',
    'Body',
    '',
    '--A1--',
    '',
  );
}

export function plainBounceMessage({ to, recipient }: { to: string; recipient: string }): string {
  return lines(
    'From: Mail Delivery System <Mailer-Daemon@mx.remote.test>',
    `To: ${to}`,
    'Subject: Mail delivery failed: returning message to sender',
    'Auto-Submitted: auto-replied',
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This message was created automatically by mail delivery software.',
    '',
    'A message that you sent could not be delivered to one or more of its',
    'recipients. This is a permanent error. The following address(es) failed:',
    '',
    `  ${recipient}`,
    `    host mx.remote.test [192.0.2.7]`,
    `    SMTP error from remote mail server after RCPT TO:<${recipient}>:`,
    '    550 5.1.1 User unknown',
    '',
    '------ This is a copy of the message, including all the headers. ------',
    '',
    original({ from: 'news@sender.test', recipient }),
    '',
  );
}

export function exchangeBounceMessage({
  to,
  recipient,
}: {
  to: string;
  recipient: string;
}): string {
  return lines(
    'From: postmaster@outlook.remote.test',
    `To: ${to}`,
    'Subject: Undeliverable: Return path',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Delivery has failed to these recipients or groups:',
    '',
    `${recipient} (${recipient})`,
    "The email address you entered couldn't be found. Please check the recipient's email address",
    'and try to resend the message.',
    '',
    'Diagnostic information for administrators:',
    '',
    'Generating server: EX1.remote.test',
    '',
    recipient,
    "Remote Server returned '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found'",
    '',
    'Original message headers:',
    '',
    original({ from: 'news@sender.test', recipient }),
    '',
  );
}

export function outOfOfficeMessage({ to, recipient }: { to: string; recipient: string }): string {
  return lines(
    `From: ${recipient}`,
    `To: ${to}`,
    'Subject: Automatic reply: Return path',
    'Auto-Submitted: auto-replied',
    'X-Autoreply: yes',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'I am out of the office until Monday with no access to email (550 5.1.1 aside).',
    '',
  );
}
