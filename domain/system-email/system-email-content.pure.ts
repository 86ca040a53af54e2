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
  action: { label: string; url: string },
): { html: string; text: string } {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n');
  const button = `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(action.label)}</a></p>
<p style="color:#666;font-size:12px">Or open this link: ${escapeHtml(action.url)}</p>`;
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5">${body}\n${button}</body></html>`;
  const text = [...paragraphs, `${action.label}: ${action.url}`].join('\n\n');
  return { html, text };
}

/** What a system email says beside its link; each kind reads the facts it names. */
interface SystemEmailFacts {
  projectName?: string;
  limit?: LimitNotice;
  webhook?: WebhookEndpointNotice;
}

interface SystemEmailText {
  subject: string;
  paragraphs: string[];
  /** The label of the button that opens the link. */
  action: string;
}

const linkExpiry = (within: string): string => `The link works once and expires in ${within}.`;

const SYSTEM_EMAIL_TEXTS = {
  VERIFY_EMAIL: () => ({
    subject: 'Verify your email address',
    paragraphs: [
      'Welcome! Confirm this address to finish setting up your account.',
      linkExpiry('24 hours'),
    ],
    action: 'Verify email',
  }),
  RESET_PASSWORD: () => ({
    subject: 'Reset your password',
    paragraphs: [
      'Someone asked to reset the password of this account. If it was not you, ignore this email.',
      linkExpiry('1 hour'),
    ],
    action: 'Choose a new password',
  }),
  PROJECT_INVITATION: ({ projectName }) => ({
    subject: `You were added to ${projectName ?? 'a project'}`,
    paragraphs: [`You are now a member of the project "${projectName ?? ''}".`],
    action: 'Open the dashboard',
  }),
  BILLING_LIMIT_WARNING: ({ projectName, limit }) => ({
    subject: `${projectName ?? 'Your project'} has used 80% of its monthly ${limit?.category ?? ''} cap`,
    paragraphs: [
      `The project "${projectName ?? ''}" has used ${limit?.used ?? 0} of its ${limit?.cap ?? 0} ${limit?.category ?? ''} emails for ${limit?.periodStart.slice(0, 7) ?? ''} (UTC).`,
      'Mail past the cap is refused until the next month, or until the cap is raised in the billing limits.',
    ],
    action: 'Review the billing limits',
  }),
  WEBHOOK_ENDPOINT_DISABLED: ({ projectName, webhook }) => ({
    subject: `A webhook endpoint of ${projectName ?? 'your project'} was disabled`,
    paragraphs: [
      `Every delivery to ${webhook?.url ?? 'a webhook endpoint'} of the project "${projectName ?? ''}" has failed since ${webhook?.failingSince ?? 'days ago'}, so the endpoint was disabled and its pending deliveries marked failed.`,
      'Fix the endpoint, enable it again, and retry the failed deliveries from its delivery log.',
    ],
    action: 'Open the webhook endpoints',
  }),
} satisfies Record<SystemEmailKind, (facts: SystemEmailFacts) => SystemEmailText>;

/** The account emails the service sends on its own behalf. */
export function systemEmailContent({
  kind,
  link,
  ...facts
}: SystemEmailFacts & { kind: SystemEmailKind; link: string }): SystemEmailContent {
  const { subject, paragraphs, action } = SYSTEM_EMAIL_TEXTS[kind](facts);
  return { subject, ...layout(paragraphs, { label: action, url: link }) };
}
