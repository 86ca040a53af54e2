export const PROJECT_ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

const ROLE_RANK: Record<ProjectRole, number> = { MEMBER: 1, ADMIN: 2, OWNER: 3 };

/** OWNER can do all an ADMIN can, and an ADMIN all a MEMBER can. */
export function roleAtLeast(role: ProjectRole, required: ProjectRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[required];
}

/** Who may do a thing that needs `required`, in words: "an OWNER" or "an OWNER or ADMIN". */
export function whoMay(required: ProjectRole): string {
  return required === 'OWNER'
    ? 'an OWNER'
    : required === 'ADMIN'
      ? 'an OWNER or ADMIN'
      : 'a member';
}
