import { z } from 'zod';
import { updateContact } from '../../contacts/contacts.service.js';
import type { StepDefinition } from './step-definition.js';

/** UPDATE_CONTACT: merges data into the contact by the data rules, and/or sets its subscription. */
export const updateContactStep: StepDefinition<'UPDATE_CONTACT'> = {
  help: '`{data?, subscribed?}`',
  config: z
    .strictObject({
      data: z.record(z.string().min(1).max(200), z.unknown()).optional(),
      subscribed: z.boolean().optional(),
    })
    .refine((c) => c.data !== undefined || c.subscribed !== undefined, {
      message: 'Give data, subscribed, or both',
      params: { code: 'required' },
    }),
  async run({ sql, ref, step }) {
    const updated = await updateContact({
      sql,
      projectId: ref.projectId,
      contactId: ref.contactId,
      subscribed: step.config.subscribed,
      data: step.config.data,
      source: 'workflow',
    });
    return { result: { subscribed: updated.subscribed } };
  },
};
