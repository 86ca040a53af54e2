import { findContact } from '../../db/sql/contacts.sql.js';
import { isExecutionActive } from '../../db/sql/executions.sql.js';
import type { Sql } from '../../db/sql/sql.js';
import { WebhookRefusedError, type WebhookSender } from '../shared/ports.js';
import { renderTemplate } from '../templates/template-engine.js';
import type { ExecutionRef } from './execution-contract.pure.js';
import type { StepScope } from './steps/step-definition.js';
import type { WebhookConfig } from './step-config.pure.js';
import {
  contentTypeOf,
  defaultContentType,
  isJsonBody,
  jsonEscapedVariables,
} from './webhook-request.pure.js';

/** What one attempt of a WEBHOOK step came to. */
export type WebhookOutcome =
  | { ok: true; status: number; body: string }
  /** `retry`: another attempt may succeed (a network failure, a 5xx or 429 answer). */
  | { ok: false; retry: boolean; error: string; status?: number; body?: string }
  /** The execution was cancelled meanwhile: nothing was sent. */
  | { ok: false; inactive: true };

const render = (source: string, variables: Record<string, unknown>): string =>
  renderTemplate(source, variables, { escape: false });

/** Every string of a JSON body rendered as a template; the JSON itself stays as it is. */
function renderJsonValue(value: unknown, variables: Record<string, unknown>): unknown {
  if (typeof value === 'string') return render(value, variables);
  if (Array.isArray(value)) return value.map((item) => renderJsonValue(item, variables));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, renderJsonValue(item, variables)]),
    );
  }
  return value;
}

/**
 * The request a WEBHOOK step sends: url, header values and body rendered (sandboxed). A body
 * given as JSON has its strings rendered and is sent as JSON; a body template that is JSON has
 * every value JSON-escaped before it is put in, so data cannot break out of a string.
 */
export function renderWebhookRequest(
  config: WebhookConfig,
  variables: Record<string, unknown>,
): { url: string; method: string; headers: Record<string, string>; body?: string } {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    const rendered = render(value, variables);
    if (/[\r\n]/.test(rendered))
      throw new WebhookRefusedError(`Header ${name} renders a line break`);
    headers[name] = rendered;
  }
  let body: string | undefined;
  if (typeof config.body === 'string') {
    const json = isJsonBody(config.body, headers);
    body = render(
      config.body,
      json ? (jsonEscapedVariables(variables) as Record<string, unknown>) : variables,
    );
    if (!contentTypeOf(headers)) headers['Content-Type'] = defaultContentType(json);
  } else if (config.body !== undefined) {
    body = JSON.stringify(renderJsonValue(config.body, variables));
    if (!contentTypeOf(headers)) headers['Content-Type'] = defaultContentType(true);
  }
  return { url: render(config.url, variables).trim(), method: config.method, headers, body };
}

/**
 * One attempt of a WEBHOOK step: the contact read fresh, the request rendered and sent (see
 * WebhookSender for the address rules). An `Idempotency-Key` of the execution and step lets the
 * receiver recognise a retried attempt.
 */
export async function attemptWebhook({
  sql,
  send,
  ref,
  stepId,
  config,
  scope,
}: {
  sql: Sql;
  send: WebhookSender;
  ref: ExecutionRef;
  stepId: string;
  config: WebhookConfig;
  scope: StepScope;
}): Promise<WebhookOutcome> {
  if (!(await isExecutionActive(sql, { executionId: ref.executionId }))) {
    return { ok: false, inactive: true };
  }
  const contact = await findContact(sql, { projectId: ref.projectId, contactId: ref.contactId });
  if (!contact) return { ok: false, retry: false, error: 'The contact no longer exists' };
  const variables = {
    contact: {
      id: contact.id,
      email: contact.email,
      subscribed: contact.subscribed,
      data: contact.data,
    },
    data: contact.data,
    event: scope.trigger?.data ?? {},
    context: scope.context,
    workflowId: ref.workflowId,
    executionId: ref.executionId,
  };
  let request: ReturnType<typeof renderWebhookRequest>;
  try {
    request = renderWebhookRequest(config, variables);
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
  } catch (error) {
    const reason = error instanceof WebhookRefusedError ? error.message : undefined;
    return {
      ok: false,
      retry: false,
      error: reason ?? 'The URL does not render to an http or https URL',
    };
  }
  request.headers['Idempotency-Key'] = `${ref.executionId}:${stepId}`;
  request.headers['User-Agent'] = 'Mailwright-Webhook/1';
  try {
    const response = await send(request);
    if (response.status >= 200 && response.status < 300) return { ok: true, ...response };
    return {
      ok: false,
      retry: response.status >= 500 || response.status === 429,
      error: `The webhook answered ${response.status}`,
      ...response,
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, retry: !(error instanceof WebhookRefusedError), error: message };
  }
}
