import { z } from 'zod';
import { TRACKING_OPTIONS } from '../components/tracking-fields';

/** The editor's form; the API checks the rest (a verified sender, a template that compiles). */
export const templateForm = z.object({
  name: z.string().trim().min(1, 'Name the template').max(200),
  subject: z.string().min(1, 'Write a subject').max(998),
  from: z.email('A sender address on a verified domain'),
  fromName: z.string().max(200),
  replyTo: z.union([z.literal(''), z.email('An email address')]),
  type: z.enum(['MARKETING', 'TRANSACTIONAL']),
  body: z.string().min(1, 'Write the body'),
  openTracking: z.enum(TRACKING_OPTIONS),
  clickTracking: z.enum(TRACKING_OPTIONS),
});
export type TemplateForm = z.infer<typeof templateForm>;

export const TEMPLATE_FIELDS = [
  'name',
  'subject',
  'from',
  'fromName',
  'replyTo',
  'type',
  'body',
] as const;

export const STARTER_BODY = `<h1>Hello {{ firstName ?? 'there' }}</h1>
<p>Write your email here.</p>
<p><a href="{{ unsubscribeUrl }}">Unsubscribe</a></p>`;
