export const TEMPLATE_TYPES = ['TRANSACTIONAL', 'MARKETING'] as const;
export type TemplateType = (typeof TEMPLATE_TYPES)[number];
