import { assertNever } from '../shared/assert-never.pure.js';
import type { LimitNotice, WebhookEndpointNotice } from '../shared/ports.js';
import type { SystemEmailKind } from './system-email-kind.pure.js';

export interface SystemEmailContent {
  subject: string;
  html: string;
  text: string;
}

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function layout(
  paragraphs: string[],
  action?: { label: string; url: string },
): { html: string; text: string } {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = action
    ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>
<p style="color:#666;font-size:12px">Or open this link: ${escapeHtml(action.url)}</p>`
    : '';
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${body}\n${button}</body></html>`;
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : [])].join('\n\n');
  return { html, text };
}

/** The account emails the service sends on its own behalf. */
export function systemEmailContent({
  kind,
  link,
  projectName,
  limit,
  webhook,
}: {
  kind: SystemEmailKind;
  link: string;
  projectName?: string;
  limit?: LimitNotice;
  webhook?: WebhookEndpointNotice;
}): SystemEmailContent {
  switch (kind) {
    case 'VERIFY_EMAIL':
      return {
        subject: 'Verify your email address',
        ...layout(
          [
            'Welcome! Confirm this address to finish setting up your account.',
            'The link works once and expires in 24 hours.',
          ],
          { label: 'Verify email', url: link },
        ),
      };
    case 'RESET_PASSWORD':
      return {
        subject: 'Reset your password',
        ...layout(
          [
            'Someone asked to reset the password of this account. If it was not you, ignore this email.',
            'The link works once and expires in 1 hour.',
          ],
          { label: 'Choose a new password', url: link },
        ),
      };
    case 'PROJECT_INVITATION':
      return {
        subject: `You were added to ${projectName ?? 'a project'}`,
        ...layout([`You are now a member of the project "${projectName ?? ''}".`], {
          label: 'Open the dashboard',
          url: link,
        }),
      };
    case 'BILLING_LIMIT_WARNING': {
      const month = limit?.periodStart.slice(0, 7) ?? '';
      return {
        subject: `${projectName ?? 'Your project'} has used 80% of its monthly ${limit?.category ?? ''} cap`,
        ...layout(
          [
            `The project "${projectName ?? ''}" has used ${limit?.used ?? 0} of its ${limit?.cap ?? 0} ${limit?.category ?? ''} emails for ${month} (UTC).`,
            'Mail past the cap is refused until the next month, or until the cap is raised in the billing limits.',
          ],
          { label: 'Review the billing limits', url: link },
        ),
      };
    }
    case 'WEBHOOK_ENDPOINT_DISABLED':
      return {
        subject: `A webhook endpoint of ${projectName ?? 'your project'} was disabled`,
        ...layout(
          [
            `Every delivery to ${webhook?.url ?? 'a webhook endpoint'} of the project "${projectName ?? ''}" has failed since ${webhook?.failingSince ?? 'days ago'}, so the endpoint was disabled and its pending deliveries marked failed.`,
            'Fix the endpoint, enable it again, and retry the failed deliveries from its delivery log.',
          ],
          { label: 'Open the webhook endpoints', url: link },
        ),
      };
  }
  return assertNever(kind, 'system email kind');
}
