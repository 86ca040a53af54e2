/**
 * A project's double opt-in: whether contacts that subscribe through the public key (POST
 * /v1/track, POST /v1/subscribe) must confirm by email first, and the template of that email
 * (null: the built-in one, confirmation-email.pure.ts).
 */
export interface DoubleOptInSettings {
  enabled: boolean;
  templateId: string | null;
}

export const DEFAULT_DOUBLE_OPT_IN: DoubleOptInSettings = { enabled: false, templateId: null };

/** How long the link in a confirmation email works. */
export const CONFIRMATION_LINK_DAYS = 7;

/** The stored setting over the defaults (a project that never set one has `{}`). */
export const doubleOptInOf = (
  stored: Partial<DoubleOptInSettings> | null | undefined,
): DoubleOptInSettings => ({ ...DEFAULT_DOUBLE_OPT_IN, ...stored });

/** The template variable that holds the confirmation link; a chosen template must use it. */
export const CONFIRM_URL_VARIABLE = 'confirmUrl';
