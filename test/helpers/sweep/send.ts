import { closing, filePart, rawRequest, textPart } from '../raw-http.js';
import type { Resources } from './fixture.js';
import type { Body, MultipartVariant, PathValue, SweepInput } from './inputs.js';
import type { Operation } from './openapi.js';

/** Who the sweep calls as: the fixture's keys and its owner's session. */
export interface Caller {
  projectId: string;
  secretKey: string;
  publicKey: string;
  cookie: string;
  resources: Resources;
  sendingDomain: string;
}

/** The input's placeholders (`__sweep:<name>__`) replaced with the fixture's own values. */
function filled(text: string, caller: Caller): string {
  return text.replace(/__sweep:([A-Za-z]+)__/g, (_m, name: string) =>
    name === 'sendingDomain'
      ? caller.sendingDomain
      : (caller.resources[name as keyof Resources] ?? '00000000-0000-4000-8000-000000000000'),
  );
}

export interface SweepAnswer {
  /** undefined: the connection closed without an answer. */
  status?: number;
  contentType: string;
  body: unknown;
  text: string;
  requestId?: string;
}

const BOUNDARY = 'sweep-boundary-25';
const CSV = 'email,plan\nann@example.com,pro\nbo@example.com,free\n';

function pathSegment(value: PathValue, caller: Caller): string {
  if (value.kind === 'project') return caller.projectId;
  if (value.kind === 'resource')
    return encodeURIComponent(
      caller.resources[value.name] ?? '00000000-0000-4000-8000-000000000000',
    );
  return value.raw ? value.text : encodeURIComponent(value.text);
}

/** The request target: path parameters filled in and the query written. */
export function targetOf(operation: Operation, input: SweepInput, caller: Caller): string {
  const path = operation.path.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, name: string) => {
    const value = input.path[name];
    if (!value) throw new Error(`No value for {${name}} of ${operation.id}`);
    return pathSegment(value, caller);
  });
  const query = input.query
    .map(({ name, value, raw }) =>
      raw
        ? `${encodeURIComponent(name)}=${value}`
        : `${encodeURIComponent(name)}=${encodeURIComponent(value)}`,
    )
    .join('&');
  return filled(query ? `${path}?${query}` : path, caller);
}

function credentialHeaders(input: SweepInput, caller: Caller): Record<string, string> {
  switch (input.credential) {
    case 'none':
      return {};
    case 'secretKey':
      return { Authorization: `Bearer ${caller.secretKey}` };
    case 'publicKey':
      return { Authorization: `Bearer ${caller.publicKey}` };
    case 'session':
      return { Cookie: caller.cookie };
    case 'sessionWithProject':
      return { Cookie: caller.cookie, 'X-Project-Id': caller.projectId };
  }
}

function multipartBody(
  variant: MultipartVariant,
  field: string,
): {
  send: Buffer;
  headers: Record<string, string>;
  declaredLength?: number;
  then?: 'wait' | 'end' | 'destroy';
} {
  const type = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };
  const file = (name = field, content: string | Buffer = CSV, filename = 'list.csv') =>
    filePart({ boundary: BOUNDARY, field: name, filename, content });
  const whole = Buffer.concat([file(), closing(BOUNDARY)]);
  switch (variant) {
    case 'cut-before-closing':
      return { send: whole.subarray(0, whole.length - 30), headers: type };
    case 'cut-mid-file':
      return { send: whole.subarray(0, 140), headers: type };
    case 'declared-longer-then-end':
      return {
        send: whole.subarray(0, Math.floor(whole.length / 2)),
        declaredLength: whole.length,
        then: 'end',
        headers: type,
      };
    case 'aborted':
      return {
        send: whole.subarray(0, Math.floor(whole.length / 2)),
        declaredLength: whole.length,
        then: 'destroy',
        headers: type,
      };
    case 'no-boundary':
      return { send: whole, headers: { 'Content-Type': 'multipart/form-data' } };
    case 'wrong-boundary':
      return {
        send: whole,
        headers: { 'Content-Type': 'multipart/form-data; boundary=not-the-one' },
      };
    case 'wrong-field':
      return { send: Buffer.concat([file('other'), closing(BOUNDARY)]), headers: type };
    case 'empty-file':
      return { send: Buffer.concat([file(field, ''), closing(BOUNDARY)]), headers: type };
    case 'two-files':
      return { send: Buffer.concat([file(), file(), closing(BOUNDARY)]), headers: type };
    case 'text-field-only':
      return {
        send: Buffer.concat([
          textPart({ boundary: BOUNDARY, name: field, value: 'not a file' }),
          closing(BOUNDARY),
        ]),
        headers: type,
      };
    case 'garbage':
      return { send: Buffer.from('\u0000\u0001garbage--\r\n\r\n--'), headers: type };
    case 'nul-filename':
      return {
        send: Buffer.concat([file(field, CSV, 'a\u0000b.csv'), closing(BOUNDARY)]),
        headers: type,
      };
  }
}

function answerOf(status: number, headers: Headers | undefined, text: string): SweepAnswer {
  const contentType = headers?.get('content-type') ?? '';
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status, contentType, body, text, requestId: headers?.get('x-request-id') ?? undefined };
}

/** Sends one sweep input as an HTTP request; the answer, or one without a status. */
export async function sendInput({
  baseUrl,
  operation,
  input,
  caller,
  clientAddress,
}: {
  baseUrl: string;
  operation: Operation;
  input: SweepInput;
  caller: Caller;
  clientAddress: string;
}): Promise<SweepAnswer> {
  const target = targetOf(operation, input, caller);
  const headers: Record<string, string> = {
    'X-Forwarded-For': clientAddress,
    ...credentialHeaders(input, caller),
    ...input.headers,
  };
  const body: Body | undefined = input.body;
  if (body?.type === 'multipart') {
    const parts = multipartBody(body.variant, operation.uploadField ?? 'file');
    const answer = await rawRequest({
      baseUrl,
      path: target,
      headers: { ...headers, ...parts.headers },
      send: parts.send,
      declaredLength: parts.declaredLength,
      then: parts.then,
    });
    if (!answer) return { contentType: '', body: undefined, text: '' };
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return { status: answer.status, contentType: 'application/json', body: answer.body, text };
  }
  let payload: Buffer | undefined;
  if (body?.type === 'json') {
    payload = Buffer.from(filled(JSON.stringify(body.value), caller), 'utf8');
    headers['Content-Type'] = 'application/json';
  } else if (body?.type === 'text') {
    payload = Buffer.from(filled(body.text, caller), 'utf8');
    if (body.contentType !== undefined) headers['Content-Type'] = body.contentType;
  }
  try {
    const response = await fetch(`${baseUrl}${target}`, {
      method: operation.method,
      headers,
      // A GET or HEAD cannot carry a body through fetch; those send the query alone.
      body: operation.method === 'GET' ? undefined : payload,
      redirect: 'manual',
    });
    return answerOf(response.status, response.headers, await response.text());
  } catch (error) {
    return { contentType: '', body: undefined, text: String(error) };
  }
}

/** Why an answer is not in the error envelope with its own status, or undefined when it is. */
export function envelopeProblem(answer: SweepAnswer): string | undefined {
  const body = answer.body as {
    success?: unknown;
    error?: { code?: unknown; message?: unknown; statusCode?: unknown; requestId?: unknown };
    timestamp?: unknown;
  };
  if (!answer.contentType.includes('json') && answer.contentType !== '')
    return `content type ${answer.contentType}`;
  if (typeof body !== 'object' || body === null) return 'not a JSON object';
  if (body.success !== false) return 'success is not false';
  if (!body.error) return 'no error';
  if (body.error.statusCode !== answer.status)
    return `error.statusCode ${String(body.error.statusCode)} for status ${answer.status}`;
  if (typeof body.error.code !== 'string') return 'no error.code';
  if (typeof body.error.message !== 'string') return 'no error.message';
  if (typeof body.error.requestId !== 'string' || body.error.requestId === '')
    return 'no error.requestId';
  if (typeof body.timestamp !== 'string') return 'no timestamp';
  return undefined;
}
