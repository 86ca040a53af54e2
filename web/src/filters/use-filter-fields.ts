import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { useProjectId } from '../api/use-project';

/** What a field holds, which decides the value input (a number, a date, true/false, text). */
export type FieldValueType = 'string' | 'number' | 'boolean' | 'date' | 'object' | 'mixed';

export interface FieldOption {
  /** The condition's `field`: `email`, `data.plan`, `event.signup`, `segment.<id>`. */
  value: string;
  label: string;
  group: 'Contact' | 'Contact data' | 'Events' | 'Segments';
  type: FieldValueType;
}

/** The contact's own fields, as both filter scopes read them. */
export const STANDARD_FIELD_OPTIONS: FieldOption[] = [
  { value: 'email', label: 'Email', group: 'Contact', type: 'string' },
  { value: 'subscribed', label: 'Subscribed', group: 'Contact', type: 'boolean' },
  { value: 'createdAt', label: 'Signed up (created)', group: 'Contact', type: 'date' },
  { value: 'updatedAt', label: 'Last updated', group: 'Contact', type: 'date' },
];

/**
 * The fields a filter can read in this project: the contact's own, its data keys (GET
 * /contacts/fields), its events (GET /events/names) and the other segments.
 */
export function useFilterFields({ excludeSegmentId }: { excludeSegmentId?: string } = {}) {
  const projectId = useProjectId();
  const fields = useQuery({
    queryKey: ['project', projectId, 'contacts', 'field-list'],
    queryFn: () => unwrap(api.GET('/contacts/fields')),
  });
  const events = useQuery({
    queryKey: ['project', projectId, 'events', 'names'],
    queryFn: () => unwrap(api.GET('/events/names')),
  });
  const segments = useQuery({
    queryKey: ['project', projectId, 'segments'],
    queryFn: () => unwrap(api.GET('/segments')),
  });
  const options: FieldOption[] = [
    ...STANDARD_FIELD_OPTIONS,
    ...(fields.data?.fields ?? [])
      .filter((f) => f.kind === 'custom')
      .map((f) => ({
        value: `data.${f.name}`,
        label: f.name,
        group: 'Contact data' as const,
        type: f.type,
      })),
    ...(events.data?.names ?? []).map((e) => ({
      value: `event.${e.name}`,
      label: e.name,
      group: 'Events' as const,
      type: 'mixed' as const,
    })),
    ...(segments.data ?? [])
      .filter((s) => s.id !== excludeSegmentId)
      .map((s) => ({
        value: `segment.${s.id}`,
        label: s.name,
        group: 'Segments' as const,
        type: 'mixed' as const,
      })),
  ];
  return { options, loading: fields.isPending || events.isPending || segments.isPending };
}
