/** The account emails the service sends itself (not a project's mail). */
export const SYSTEM_EMAIL_KINDS = [
  'VERIFY_EMAIL',
  'RESET_PASSWORD',
  'PROJECT_INVITATION',
  'BILLING_LIMIT_WARNING',
  'WEBHOOK_ENDPOINT_DISABLED',
] as const;
export type SystemEmailKind = (typeof SYSTEM_EMAIL_KINDS)[number];
