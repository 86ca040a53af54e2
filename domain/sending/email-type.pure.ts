/**
 * The kind of mail: a template's, and so its emails'. MARKETING mail is withheld from
 * unsubscribed contacts and carries the one-click unsubscribe headers.
 */
export const EMAIL_TYPES = ['TRANSACTIONAL', 'MARKETING'] as const;
export type EmailType = (typeof EMAIL_TYPES)[number];
