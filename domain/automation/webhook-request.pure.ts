// What a WEBHOOK step may send, and how its body is put together. Pure.

export const WEBHOOK_BODY_BYTES_MAX = 64 * 1024;
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of a response the step log keeps. */
export const WEBHOOK_RESPONSE_BYTES_KEPT = 1024;

// Set by the HTTP client itself (framing, connection, the checked host); a step may not.
const FORBIDDEN_HEADERS = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
]);

export function isForbiddenWebhookHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return FORBIDDEN_HEADERS.has(lower) || lower.startsWith('proxy-');
}

const contentTypeOf = (headers: Record<string, string>): string | undefined =>
  Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1];

/**
 * Whether a body template is JSON (its values must then be JSON-escaped): the content type says
 * so, or, with none given, the template looks like a JSON object or array.
 */
export function isJsonBody(template: string, headers: Record<string, string>): boolean {
  const type = contentTypeOf(headers);
  if (type !== undefined) return /[/+]json\b/i.test(type);
  return /^\s*[[{]/.test(template);
}

/** The content type a body gets when the step names none. */
export function defaultContentType(json: boolean): string {
  return json ? 'application/json' : 'text/plain; charset=utf-8';
}

export { contentTypeOf };

/**
 * Template variables with every string JSON-escaped (without the quotes), so that a value
 * rendered inside a JSON string literal stays inside it.
 */
export function jsonEscapedVariables(value: unknown): unknown {
  if (typeof value === 'string') return JSON.stringify(value).slice(1, -1);
  if (Array.isArray(value)) return value.map(jsonEscapedVariables);
  if (typeof value === 'object' && value !== null && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, jsonEscapedVariables(item)]),
    );
  }
  return value;
}
