import { z } from 'zod';
import { addContactTag } from '../../../db/sql/contacts.sql.js';
import type { StepDefinition } from './step-definition.js';

/** ADD_TAG: adds a tag to the contact's `data.tags` list, once (a second add changes nothing). */
export const addTagStep: StepDefinition<'ADD_TAG'> = {
  help: "`{tag}` (added to the contact's `data.tags` list once)",
  config: z.strictObject({ tag: z.string().trim().min(1).max(200) }),
  async run({ sql, ref, step }) {
    const { tag } = step.config;
    const row = await addContactTag(sql, {
      projectId: ref.projectId,
      contactId: ref.contactId,
      tag,
    });
    if (!row) return { error: 'The contact no longer exists' };
    const isList = Array.isArray(row.before) || row.before === null || row.before === undefined;
    if (!row.added && !isList) {
      return { error: "The contact's data.tags holds something other than a list" };
    }
    return { result: { tag, added: row.added } };
  },
};
