import { CONFIRMATION_LINK_DAYS } from '../../domain/contacts/double-opt-in-settings.pure.js';
import type { OptInOutcome } from '../../domain/contacts/opt-in-page.pure.js';
import { assertNever } from '../../domain/shared/assert-never.pure.js';
import { escapeHtml, form, page } from './tracking-pages.js';

// The pages behind a confirmation link (double opt-in). Opening the link only shows a page; its
// button makes the POST that confirms.

/** The page for an outcome; `link` is the confirmation link the page's buttons post to. */
export function optInPage({ page: kind, email, projectName }: OptInOutcome, link: string): string {
  const who = `<strong>${escapeHtml(email)}</strong>`;
  const project = escapeHtml(projectName);
  switch (kind) {
    case 'ask':
      return page(
        'Confirm your subscription',
        `<p>Confirm that ${who} wants to receive email from ${project}.</p>${form(link, 'Confirm my subscription')}`,
      );
    case 'confirmed':
      return page(
        'Subscription confirmed',
        `<p>Thank you: ${who} is now subscribed to email from ${project}.</p>`,
      );
    case 'already-subscribed':
      return page(
        'Already confirmed',
        `<p>${who} is already subscribed to email from ${project}. Nothing changed.</p>`,
      );
    case 'nothing-to-confirm':
      return page(
        'Nothing to confirm',
        `<p>${who} is not waiting for a confirmation: its subscription to ${project} changed after this link was sent. Sign up again to subscribe.</p>`,
      );
    case 'expired':
      return page(
        'This link has expired',
        `<p>Confirmation links work for ${CONFIRMATION_LINK_DAYS} days, and this one is older. ${who} is not subscribed to ${project} yet.</p>${form(`${link}/resend`, 'Send me a new link')}`,
      );
    case 'new-link-sent':
      return page(
        'Check your inbox',
        `<p>A new confirmation link is on its way to ${who}. It works for ${CONFIRMATION_LINK_DAYS} days.</p>`,
      );
  }
  return assertNever(kind, 'opt-in page');
}

/** An expired link's page answers 410 Gone; every other one 200. */
export const optInPageStatus = ({ page: kind }: OptInOutcome): number =>
  kind === 'expired' ? 410 : 200;
