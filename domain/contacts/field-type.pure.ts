/** The type a contact field's values suggest (GET /contacts/fields). */
export const FIELD_TYPES = ['string', 'number', 'boolean', 'date', 'object', 'mixed'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Standard fields are columns every contact has; custom ones are keys of `data`. */
export const FIELD_KINDS = ['standard', 'custom'] as const;
export type FieldKind = (typeof FIELD_KINDS)[number];
