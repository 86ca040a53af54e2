import { z } from 'zod';
import { canonicalEventName } from '../events/event-names.pure.js';
import { parseWorkflowCondition, reportFilterProblems } from '../segments/filter/parse.pure.js';
import { validationError } from '../shared/errors.js';
import { toFieldErrors } from '../shared/zod-problems.js';
import { templateProblems } from '../templates/template-engine.js';
import type { StepConfig } from './step-config.pure.js';
import { DELAY_UNITS, DELAY_UNIT_MS, WEBHOOK_METHODS, type StepType } from './step-type.pure.js';
import { WEBHOOK_BODY_BYTES_MAX, isForbiddenWebhookHeader } from './webhook-request.pure.js';

// Each step type's config, checked in full when a step is added or changed (decisions.md).

const MAX_WAIT_SECONDS = 365 * 86_400;
export const WEBHOOK_HEADERS_MAX = 20;

/** A template field: a syntax error or an unsafe construct is a problem at its path. */
const template = (max: number) =>
  z
    .string()
    .max(max)
    .superRefine((source, ctx) => {
      for (const problem of templateProblems(source, 'template')) {
        ctx.addIssue({ code: 'custom', message: problem.message, params: { code: problem.code } });
      }
    });

const webhookUrl = template(2048).superRefine((source, ctx) => {
  if (source.includes('{{') || source.includes('{%')) return; // checked again once rendered
  let url: URL | undefined;
  try {
    url = new URL(source);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    ctx.addIssue({
      code: 'custom',
      message: 'Give an http or https URL',
      params: { code: 'invalid_url' },
    });
  }
});

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,100}$/;

/** Header names: tokens, at most WEBHOOK_HEADERS_MAX, none the HTTP client sets itself. */
function checkHeaderNames(headers: Record<string, string>, ctx: z.RefinementCtx): void {
  const names = Object.keys(headers);
  if (names.length > WEBHOOK_HEADERS_MAX) {
    ctx.addIssue({
      code: 'custom',
      message: `At most ${WEBHOOK_HEADERS_MAX} headers`,
      params: { code: 'too_big' },
    });
  }
  for (const name of names) {
    if (!HEADER_NAME.test(name)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'Give a header name (letters, digits, - and _)',
        params: { code: 'invalid_header' },
      });
    } else if (isForbiddenWebhookHeader(name)) {
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'This header is set by the HTTP client itself',
        params: { code: 'reserved_header' },
      });
    }
  }
}

// A value may hold templates; CR and LF would start a header of their own.
const headerValue = template(2000).refine((value) => !/[\r\n]/.test(value), {
  message: 'A header value cannot contain a line break',
  params: { code: 'invalid_header' },
});

/** Every string inside a JSON body is a template: each is checked. */
function checkBodyTemplates(value: unknown, path: (string | number)[], ctx: z.RefinementCtx): void {
  if (typeof value === 'string') {
    for (const problem of templateProblems(value, 'body')) {
      ctx.addIssue({
        code: 'custom',
        path,
        message: problem.message,
        params: { code: problem.code },
      });
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => checkBodyTemplates(item, [...path, i], ctx));
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) checkBodyTemplates(item, [...path, key], ctx);
  }
}

const webhookBody = z.unknown().superRefine((body, ctx) => {
  if (body === undefined) return;
  if (Buffer.byteLength(JSON.stringify(body)) > WEBHOOK_BODY_BYTES_MAX) {
    ctx.addIssue({
      code: 'custom',
      message: `The body is larger than ${WEBHOOK_BODY_BYTES_MAX} bytes`,
      params: { code: 'too_big' },
    });
    return;
  }
  checkBodyTemplates(body, [], ctx);
});

const STEP_CONFIG_SCHEMAS: Record<StepType, z.ZodType> = {
  SEND_EMAIL: z.strictObject({ templateId: z.uuid() }),
  DELAY: z
    .strictObject({ amount: z.number().int().min(1), unit: z.enum(DELAY_UNITS) })
    .refine((c) => c.amount * DELAY_UNIT_MS[c.unit] <= MAX_WAIT_SECONDS * 1000, {
      message: 'A delay is at most 365 days',
      path: ['amount'],
      params: { code: 'too_big' },
    }),
  WAIT_FOR_EVENT: z.strictObject({
    eventName: z.string().trim().min(1).max(255).transform(canonicalEventName),
    timeoutSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).optional(),
  }),
  CONDITION: z.unknown().transform((input, ctx) => {
    const parsed = parseWorkflowCondition(input);
    if ('condition' in parsed) return parsed.condition;
    reportFilterProblems(ctx, parsed.problems);
    return z.NEVER;
  }),
  WEBHOOK: z.strictObject({
    url: webhookUrl,
    method: z.enum(WEBHOOK_METHODS).default('POST'),
    headers: z.record(z.string(), headerValue).superRefine(checkHeaderNames).optional(),
    body: webhookBody.optional(),
  }),
  UPDATE_CONTACT: z
    .strictObject({
      data: z.record(z.string().min(1).max(200), z.unknown()).optional(),
      subscribed: z.boolean().optional(),
    })
    .refine((c) => c.data !== undefined || c.subscribed !== undefined, {
      message: 'Give data, subscribed, or both',
      params: { code: 'required' },
    }),
  EXIT: z.strictObject({ reason: z.string().trim().max(500).optional() }),
};

/** A step config checked for its type and put in canonical form; a 422 at `config.*` otherwise. */
export function parseStepConfig(type: StepType, input: unknown): StepConfig {
  const parsed = STEP_CONFIG_SCHEMAS[type].safeParse(input ?? {}, { reportInput: true });
  if (!parsed.success) throw validationError(toFieldErrors(parsed.error.issues, 'config'));
  return parsed.data as StepConfig;
}
