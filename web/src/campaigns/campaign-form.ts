import { z } from 'zod';
import {
  fromTrackingOption,
  toTrackingOption,
  TRACKING_OPTIONS,
} from '../components/tracking-fields';
import type { Filter } from '../filters/filter-model';
import type { Campaign } from './campaign-queries';

/** The composer's fields; the From is a local part on one of the verified domains. */
export const campaignForm = z.object({
  name: z.string().trim().min(1, 'Give the campaign a name').max(200),
  subject: z.string().trim().min(1, 'A subject is required').max(998),
  fromLocal: z
    .string()
    .trim()
    .min(1, 'Who sends it: the part before @')
    .regex(/^[^@\s]+$/, 'Only the part before @'),
  fromDomain: z.string().min(1, 'Verify a sending domain first'),
  fromName: z.string().max(200),
  replyTo: z.union([z.literal(''), z.email('A valid address, or nothing')]),
  templateId: z.string(),
  body: z.string().min(1, 'Write the email, or start from a template'),
  audienceType: z.enum(['ALL', 'SEGMENT', 'FILTERED']),
  segmentId: z.string(),
  openTracking: z.enum(TRACKING_OPTIONS),
  clickTracking: z.enum(TRACKING_OPTIONS),
});
export type CampaignForm = z.infer<typeof campaignForm>;

/** Form fields an API field error can name (`from` lands on the local part). */
export const FORM_FIELDS = [
  'name',
  'subject',
  'fromName',
  'replyTo',
  'templateId',
  'body',
  'audienceType',
  'segmentId',
] as const;

export function toForm(c: Campaign | undefined, domains: string[]): CampaignForm {
  const [local, domain] = (c?.from ?? '').split('@');
  return {
    name: c?.name ?? '',
    subject: c?.subject ?? '',
    fromLocal: local ?? '',
    fromDomain: domain ?? domains[0] ?? '',
    fromName: c?.fromName ?? '',
    replyTo: c?.replyTo ?? '',
    templateId: c?.templateId ?? '',
    body: c?.body ?? '',
    audienceType: c?.audienceType ?? 'ALL',
    segmentId: c?.segmentId ?? '',
    openTracking: toTrackingOption(c?.tracking.opens),
    clickTracking: toTrackingOption(c?.tracking.clicks),
  };
}

/** The body POST and PUT take. */
export function toBody(values: CampaignForm, filter: Filter) {
  return {
    name: values.name,
    subject: values.subject,
    body: values.body,
    from: `${values.fromLocal}@${values.fromDomain}`,
    fromName: values.fromName || null,
    replyTo: values.replyTo || null,
    templateId: values.templateId || null,
    audienceType: values.audienceType,
    segmentId: values.audienceType === 'SEGMENT' ? values.segmentId || null : null,
    ...(values.audienceType === 'FILTERED' ? { audienceFilter: filter } : {}),
    tracking: {
      opens: fromTrackingOption(values.openTracking),
      clicks: fromTrackingOption(values.clickTracking),
    },
  };
}
