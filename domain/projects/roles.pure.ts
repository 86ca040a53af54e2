export const PROJECT_ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];
