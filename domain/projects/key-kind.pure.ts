/** A project's two API keys: the public one (pk_) tracks only; the secret one (sk_) does all. */
export const KEY_KINDS = ['public', 'secret'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];
