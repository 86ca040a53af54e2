import { type SegmentRow } from '../../db/sql/segments.sql.js';
import type { Filter } from './filter/ast.pure.js';
import { type SegmentType } from './segment-type.pure.js';

// A segment as the API shows it.

export interface SegmentView {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  type: SegmentType;
  /** The filter of a DYNAMIC segment (also answered as `condition`, the spec's other name). */
  filters: Filter | null;
  condition: Filter | null;
  trackMembership: boolean;
  /** Cached: counted on create and change, by refresh and by compute. */
  memberCount: number;
  memberCountAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toSegmentView(row: SegmentRow): SegmentView {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    type: row.type,
    filters: row.filter,
    condition: row.filter,
    trackMembership: row.track_membership,
    memberCount: row.member_count,
    memberCountAt: row.member_count_at ? new Date(row.member_count_at).toISOString() : null,
    createdAt: new Date(row.created_at).toISOString(),
    updatedAt: new Date(row.updated_at).toISOString(),
  };
}
