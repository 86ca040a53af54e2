/** How an attachment is shown: as a file, or inline (referenced by its Content-ID). */
export const ATTACHMENT_DISPOSITIONS = ['attachment', 'inline'] as const;
export type AttachmentDisposition = (typeof ATTACHMENT_DISPOSITIONS)[number];
