import { v7 as uuidv7 } from 'uuid';

/** Time-ordered UUIDs keep b-tree inserts local and make ids sortable by creation. */
export function newId(): string {
  return uuidv7();
}
