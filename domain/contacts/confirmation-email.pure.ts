import { CONFIRMATION_LINK_DAYS, CONFIRM_URL_VARIABLE } from './double-opt-in-settings.pure.js';

/**
 * The built-in confirmation email, used unless the project chose a template of its own. Like a
 * template it is rendered at delivery, with the contact's data, `confirmUrl` and `projectName`.
 */
export const BUILT_IN_CONFIRMATION = {
  subject: 'Confirm your subscription to {{ projectName }}',
  body: `<!doctype html>
<html><body style="font-family:sans-serif;line-height:1.5;color:#111">
<p>Hello,</p>
<p>Someone (we hope you) asked to receive email from {{ projectName }} at {{ email }}. Please confirm that this was you:</p>
<p><a href="{{ ${CONFIRM_URL_VARIABLE} }}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">Confirm my subscription</a></p>
<p style="color:#555;font-size:13px">The link works for ${CONFIRMATION_LINK_DAYS} days. If you did not ask for this, ignore this email: you will not be subscribed.</p>
</body></html>`,
} as const;

/** The local part the built-in email is sent from, on the project's first verified domain. */
export const BUILT_IN_SENDER_LOCAL_PART = 'no-reply';
