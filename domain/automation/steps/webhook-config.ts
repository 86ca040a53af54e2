import { z } from 'zod';
import { templateProblems } from '../../templates/template-engine.js';
import { WEBHOOK_METHODS } from '../step-type.pure.js';
import { WEBHOOK_BODY_BYTES_MAX, isForbiddenWebhookHeader } from '../webhook-request.pure.js';

// The config of a WEBHOOK step, checked in full when a step is added or changed (decisions.md):
// every template compiles and is safe, the URL is http(s), headers are few and ours to set.

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

export const webhookConfig = z.strictObject({
  url: webhookUrl,
  method: z.enum(WEBHOOK_METHODS).default('POST'),
  headers: z.record(z.string(), headerValue).superRefine(checkHeaderNames).optional(),
  body: webhookBody.optional(),
});
