/** DYNAMIC segments are a filter, evaluated live; STATIC ones are a list of members. */
export const SEGMENT_TYPES = ['DYNAMIC', 'STATIC'] as const;
export type SegmentType = (typeof SEGMENT_TYPES)[number];

/** A tracked segment's membership changes fire `segment.<slug>.entry` and `.exit`. */
export const MEMBERSHIP_CHANGES = ['entry', 'exit'] as const;
export type MembershipChange = (typeof MEMBERSHIP_CHANGES)[number];

/** The slug of a segment's name: lower case, every character but letters and digits a `-`. */
export function segmentSlug(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '-');
}

export function membershipEventName(slug: string, change: MembershipChange): string {
  return `segment.${slug}.${change}`;
}
