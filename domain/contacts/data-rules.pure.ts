// The data rules of the spec, in one place, for POST /contacts, PATCH /contacts/:id, POST /v1/track
// and POST /v1/send. This module only sorts the keys; the database applies the result atomically.

/** Rule 6: never stored, never taken from input (`svc_` stands in for the service's brand). */
export const RESERVED_DATA_KEYS = new Set([
  'id',
  'svc_id',
  'svc_email',
  'email',
  'unsubscribeUrl',
  'subscribeUrl',
  'manageUrl',
]);

export interface SortedData {
  /** Rules 1 and 2: primitives and plain objects (and arrays) to merge into the contact. */
  set: Record<string, unknown>;
  /** Rule 3: keys to delete from the contact. */
  unset: string[];
  /** Rule 5: values for this one event or send only. */
  transient: Record<string, unknown>;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isTransient(value: unknown): value is { value: unknown; persistent: false } {
  return isPlainObject(value) && value.persistent === false && 'value' in value;
}

export function sortData(data: Record<string, unknown> | undefined): SortedData {
  const sorted: SortedData = { set: {}, unset: [], transient: {} };
  for (const [key, value] of Object.entries(data ?? {})) {
    if (RESERVED_DATA_KEYS.has(key)) continue; // rule 6
    if (value === undefined || value === '') continue; // rule 4
    if (value === null)
      sorted.unset.push(key); // rule 3
    else if (isTransient(value))
      sorted.transient[key] = value.value; // rule 5
    else sorted.set[key] = value; // rules 1 and 2
  }
  return sorted;
}

/** What an event (or a send) sees: the stored values and the one-off ones. */
export function eventData(sorted: SortedData): Record<string, unknown> {
  return { ...sorted.set, ...sorted.transient };
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}
