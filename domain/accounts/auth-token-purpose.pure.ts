/** What a single-use account token (an email link) is for. */
export const AUTH_TOKEN_PURPOSES = ['VERIFY_EMAIL', 'RESET_PASSWORD'] as const;
export type AuthTokenPurpose = (typeof AUTH_TOKEN_PURPOSES)[number];
