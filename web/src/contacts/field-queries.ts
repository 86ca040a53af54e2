import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { ResponseOf } from '../api/types';
import { useProjectId } from '../api/use-project';

export type ContactField = ResponseOf<'/contacts/fields', 'get'>['fields'][number];
export type FieldUsage = ResponseOf<'/contacts/fields/{field}/usage', 'get'>;
export type FieldValue = ResponseOf<'/contacts/fields/{field}/values', 'get'>['values'][number];

// Under 'contacts': what refreshes the contact lists (an import, a bulk job) refreshes these too.
export const fieldsKey = (projectId: string) => ['project', projectId, 'contacts', 'field-list'];
const fieldKey = (projectId: string, field: string, what: 'values' | 'usage') => [
  'project',
  projectId,
  'contacts',
  'field',
  field,
  what,
];

export function useContactFields() {
  const projectId = useProjectId();
  return useQuery({
    queryKey: fieldsKey(projectId),
    queryFn: () => unwrap(api.GET('/contacts/fields')),
  });
}

/** The field's distinct values with their counts (top 100), loaded when `enabled`. */
export function useFieldValues(field: string, enabled = true) {
  const projectId = useProjectId();
  return useQuery({
    queryKey: fieldKey(projectId, field, 'values'),
    enabled,
    queryFn: () =>
      unwrap(api.GET('/contacts/fields/{field}/values', { params: { path: { field } } })),
  });
}

/** Segments, campaigns and workflows that reference the field. */
export function useFieldUsage(field: string, enabled = true) {
  const projectId = useProjectId();
  return useQuery({
    queryKey: fieldKey(projectId, field, 'usage'),
    enabled,
    // Always fresh: the delete confirmation must show where the field is used now.
    staleTime: 0,
    queryFn: () =>
      unwrap(api.GET('/contacts/fields/{field}/usage', { params: { path: { field } } })),
  });
}

/** A JSON value as text: strings as they are, anything else as JSON. */
export const valueText = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
