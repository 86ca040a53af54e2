import { validationError } from '../shared/errors.js';
import { assertTemplatesValid, renderTemplate } from './template-engine.js';

/** What a preview renders with when the editor gives no data: a plausible contact. */
export const PREVIEW_SAMPLE: Readonly<Record<string, unknown>> = {
  email: 'jane.doe@example.com',
  firstName: 'Jane',
  lastName: 'Doe',
  unsubscribeUrl: '#unsubscribe',
  subscribeUrl: '#subscribe',
  manageUrl: '#manage',
  confirmUrl: '#confirm',
};

/**
 * A subject and body rendered as a send would render them (same checks, same engine, HTML
 * escaping on the body only), for the dashboard's editor. Nothing is stored or sent.
 */
/** The parts of a template a preview renders. */
interface TemplateSources {
  subject: string;
  body: string;
}

export function previewTemplate({
  subject,
  body,
  data = {},
}: {
  subject: string;
  body: string;
  data?: Record<string, unknown>;
}): { subject: string; html: string } {
  assertTemplatesValid({ subject, body });
  const variables = { ...PREVIEW_SAMPLE, ...data };
  const render = (field: keyof TemplateSources, source: string, escape: boolean): string => {
    try {
      return renderTemplate(source, variables, { escape });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw validationError({
        field,
        message: message.replace(/\s+/g, ' ').trim(),
        code: 'template_render',
      });
    }
  };
  return { subject: render('subject', subject, false), html: render('body', body, true) };
}
