import type { ContactUpsertRow } from '../../db/sql/contact-upsert.sql.js';
import { newId } from '../shared/ids.js';
import { normaliseEmail, type SortedData } from './data-rules.pure.js';

/**
 * One contact to write from an address and the caller's sorted data: the address normalised,
 * the keys to set and unset, and the ids a new contact and a flip of its subscription would get.
 */
export function contactWrite({
  email,
  data,
  subscribed = null,
}: {
  email: string;
  data: SortedData;
  subscribed?: boolean | null;
}): ContactUpsertRow {
  return {
    id: newId(),
    email: normaliseEmail(email),
    subscribed,
    set: data.set,
    unset: data.unset,
    flipEventId: newId(),
  };
}
