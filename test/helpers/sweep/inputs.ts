import fc from 'fast-check';
import type { ResourceName } from './fixture.js';
import type { Credential, JsonSchema, Operation } from './openapi.js';

/** JSON as the sweep builds it. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** A path parameter's value: the fixture's own project, or text put in the URL. */
export type PathValue =
  | { kind: 'project' }
  /** One the fixture seeded (a contact, a workflow's step...). */
  | { kind: 'resource'; name: ResourceName }
  /** `raw` goes into the URL as it is (broken percent-escapes, `%00`); otherwise it is encoded. */
  | { kind: 'text'; text: string; raw: boolean };

export type MultipartVariant =
  | 'cut-before-closing'
  | 'cut-mid-file'
  | 'declared-longer-then-end'
  | 'aborted'
  | 'no-boundary'
  | 'wrong-boundary'
  | 'wrong-field'
  | 'empty-file'
  | 'two-files'
  | 'text-field-only'
  | 'garbage'
  | 'nul-filename';

export type Body =
  | { type: 'json'; value: Json }
  | { type: 'text'; text: string; contentType?: string }
  | { type: 'multipart'; variant: MultipartVariant };

export interface SweepInput {
  category: string;
  credential: Credential;
  path: Record<string, PathValue>;
  /** Query pairs; `raw` ones are written into the query string without encoding. */
  query: { name: string; value: string; raw?: boolean }[];
  body?: Body;
  /** Headers sent besides (or instead of) the credential's: junk keys, cookies, project ids. */
  headers?: Record<string, string>;
}

/** Strings that make parsers, routers and databases stumble. */
export const HOSTILE_STRINGS: readonly string[] = [
  'x'.repeat(100 * 1024),
  '😀'.repeat(25 * 1024),
  'a'.repeat(5000),
  'nul\u0000inside',
  '\u0000',
  'lone \ud800 surrogate',
  '\u202eRTL override\u202c',
  'مرحبا بالعالم עברית',
  'e\u0301\u0301\u0301\u0301 combining',
  'zero\u200bwidth\ufeff',
  '../../../../etc/passwd',
  '%00',
  "'; DROP TABLE contacts; --",
  '{{ 7*7 }}{% raw %}',
  '<script>alert(1)</script>',
  ' ',
  '',
  'true',
  '-1',
  '1e309',
  'null',
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
];

const JUNK_NUMBERS: readonly number[] = [
  -1,
  0,
  -2147483649,
  2147483648,
  Number.MAX_SAFE_INTEGER + 2,
  1e21,
  1.5e308,
  -1.5e308,
  0.5,
  -0.000001,
];

/** Text for query values: junk numbers as a client would type them, too. */
const JUNK_QUERY_TEXT: readonly string[] = [
  '-1',
  '0',
  '-99999999999999999999',
  '99999999999999999999',
  '1e309',
  '1e-7',
  '1.5',
  'NaN',
  'Infinity',
  '0x10',
  'abc',
  '',
  ' 5',
  'a'.repeat(5000),
  'x'.repeat(100 * 1024),
  '😀',
  '\u202e5',
  '\u0000',
  'true',
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'toString',
];

/** Path segments that name nothing, or nothing sensible. */
const JUNK_IDS: readonly PathValue[] = [
  { kind: 'text', text: '00000000-0000-4000-8000-000000000000', raw: false },
  { kind: 'text', text: 'ffffffff-ffff-ffff-ffff-ffffffffffff', raw: false },
  { kind: 'text', text: '0', raw: false },
  { kind: 'text', text: '-1', raw: false },
  { kind: 'text', text: '99999999999999999999', raw: false },
  { kind: 'text', text: '../', raw: false },
  { kind: 'text', text: '..', raw: false },
  { kind: 'text', text: '../../etc/passwd', raw: false },
  { kind: 'text', text: '%00', raw: true },
  { kind: 'text', text: '%00', raw: false },
  { kind: 'text', text: '%', raw: true },
  { kind: 'text', text: '%E0%A4%A', raw: true },
  { kind: 'text', text: '%C0%AF', raw: true },
  { kind: 'text', text: '%FF%FE', raw: true },
  { kind: 'text', text: '%F0%9F%98%80', raw: true },
  { kind: 'text', text: 'a'.repeat(5000), raw: false },
  { kind: 'text', text: '😀', raw: false },
  { kind: 'text', text: '\u202eabc', raw: false },
  { kind: 'text', text: 'nul\u0000', raw: false },
  { kind: 'text', text: ' ', raw: false },
  { kind: 'text', text: 'null', raw: false },
  { kind: 'text', text: '@me', raw: false },
  { kind: 'text', text: '__proto__', raw: false },
  { kind: 'text', text: 'constructor', raw: false },
];

const MULTIPART_VARIANTS: readonly MultipartVariant[] = [
  'cut-before-closing',
  'cut-mid-file',
  'declared-longer-then-end',
  'aborted',
  'no-boundary',
  'wrong-boundary',
  'wrong-field',
  'empty-file',
  'two-files',
  'text-field-only',
  'garbage',
  'nul-filename',
];

const MALFORMED_JSON: readonly string[] = [
  '{',
  '{"a":',
  '{"a":1}}',
  '[1,2',
  'nul',
  'NaN',
  "{'a':1}",
  '{"a":1,}',
  '{"a" 1}',
  '\u0000',
  '\ufeff{}',
  '{"a":"\\u00"}',
  '{"a":"\\ud800"}',
  '{"a":1e400}',
  '{"a":-1e400}',
  '"just a string"',
  '12345678901234567890123456789',
  'true',
  'null',
  '[]',
  '[[[[[[[[[[',
  '['.repeat(100_000),
  '{"a":'.repeat(50_000),
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '{"a":1,"a":2}',
  '',
  ' ',
  '\r\n',
];

const WRONG_CONTENT_TYPES: readonly (string | undefined)[] = [
  undefined,
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/xml',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/json; charset=bogus',
  'application/vnd.api+json',
  'application/json-patch+json',
  'application/octet-stream',
  'image/png',
  '*/*',
  'application/json, text/plain',
  ';;;',
];

/** A value that roughly matches `schema` (often a valid one), as the base that junk is put into. */
export function arbitraryOf(
  schema: JsonSchema | undefined,
  depth = 0,
  name = '',
): fc.Arbitrary<Json> {
  if (!schema || depth > 6) return fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>;
  if (schema.const !== undefined) return fc.constant(schema.const as Json);
  if (schema.enum) return fc.constantFrom(...(schema.enum as Json[]));
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => arbitraryOf(s, depth + 1, name)));
  if (schema.allOf?.[0]) return arbitraryOf(schema.allOf[0], depth + 1, name);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringOf(schema, name);
    case 'integer':
    case 'number': {
      const min = Math.max(schema.minimum ?? schema.exclusiveMinimum ?? -1000, -1e6);
      const max = Math.min(schema.maximum ?? schema.exclusiveMaximum ?? 1000, 1e6);
      return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items, depth + 1, name), {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const model: Record<string, fc.Arbitrary<Json>> = {};
      for (const [key, property] of Object.entries(properties))
        model[key] = arbitraryOf(property, depth + 1, key);
      return fc.record(model, {
        requiredKeys: (schema.required ?? []).filter((k) => k in properties),
      }) as fc.Arbitrary<Json>;
    }
    default:
      // Untyped in the document (a filter, free-form data): JSON, or a filter-shaped object.
      return fc.oneof(
        fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
        filterLike(depth),
        stepConfigLike,
      );
  }
}

/** Text the sender replaces with the fixture's own: `__sweep:<resource>__`. */
export const placeholder = (name: ResourceName | 'sendingDomain'): string => `__sweep:${name}__`;

/** The seeded resource a field of this name refers to, where it refers to one. */
function resourceOfField(name: string): ResourceName | undefined {
  const base = name.replace(/Ids?$/, '');
  const known: Record<string, ResourceName> = {
    template: 'template',
    segment: 'segment',
    contact: 'contact',
    campaign: 'campaign',
    fromStep: 'step',
    toStep: 'step',
    step: 'step',
    workflow: 'workflow',
    user: 'user',
  };
  return name.endsWith('Id') || name.endsWith('Ids') ? known[base] : undefined;
}

function stringOf(schema: JsonSchema, name: string): fc.Arbitrary<Json> {
  const maxLength = Math.min(schema.maxLength ?? 40, 40);
  const minLength = Math.min(schema.minLength ?? 0, maxLength);
  const resource = resourceOfField(name);
  if (schema.format === 'uuid')
    return resource
      ? fc.oneof({ arbitrary: fc.constant(placeholder(resource)), weight: 3 }, fc.uuid())
      : fc.uuid();
  if (schema.format === 'email')
    return fc.oneof(
      fc.constant(`news@${placeholder('sendingDomain')}`),
      fc.emailAddress(),
      fc.string({ minLength: 1, maxLength: 10 }).map((s) => `${s}@example.com`),
    );
  if (schema.format === 'date-time' || schema.format === 'datetime')
    return fc
      .date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (schema.format === 'uri' || schema.format === 'url') return fc.webUrl();
  return fc.string({ minLength, maxLength });
}

const FILTER_FIELDS = [
  'email',
  'subscribed',
  'createdAt',
  'updatedAt',
  'data.plan',
  'data.a.b.c',
  'event.signup',
  'segment.00000000-0000-4000-8000-000000000000',
  'data.',
  'event.',
  '',
  'data.__proto__',
  'data.constructor',
  'event.toString',
  'constructor',
  '__proto__',
];
const FILTER_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'exists',
  'notExists',
  'greaterThan',
  'lessThan',
  'within',
  'olderThan',
  'triggered',
  'member',
  'bogus',
  'constructor',
  'toString',
  '__proto__',
];

function filterLike(depth: number): fc.Arbitrary<Json> {
  const condition = fc.record({
    field: fc.constantFrom(...FILTER_FIELDS),
    operator: fc.constantFrom(...FILTER_OPERATORS),
    value: fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null)),
    unit: fc.constantFrom(
      'days',
      'hours',
      'minutes',
      'weeks',
      'fortnights',
      'constructor',
      '__proto__',
    ),
  });
  const group: fc.Arbitrary<Json> = fc.record({
    operator: fc.constantFrom('AND', 'OR', 'XOR'),
    conditions: fc.array(depth > 4 ? condition : fc.oneof(condition, filterLike(depth + 1)), {
      maxLength: 3,
    }),
  });
  return group;
}

/** A workflow step's config, of any of the step types, with values near and past their edges. */
const stepConfigLike: fc.Arbitrary<Json> = fc.oneof(
  fc.record({ templateId: fc.oneof(fc.uuid(), fc.string({ maxLength: 5 })) }),
  fc.record({
    amount: fc.oneof(fc.integer({ min: -5, max: 100 }), fc.constantFrom(...JUNK_NUMBERS)),
    unit: fc.constantFrom(
      'seconds',
      'minutes',
      'hours',
      'days',
      'weeks',
      'years',
      '',
      'constructor',
      'toString',
      '__proto__',
    ),
  }),
  fc.record({
    eventName: fc.string({ maxLength: 10 }),
    timeoutSeconds: fc.oneof(fc.integer({ min: -5, max: 1e6 }), fc.constantFrom(...JUNK_NUMBERS)),
  }),
  fc.record({
    field: fc.constantFrom(...FILTER_FIELDS, 'context.x', 'event.data.a'),
    operator: fc.constantFrom(...FILTER_OPERATORS),
    value: fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>,
  }),
  fc.record({
    url: fc.oneof(
      fc.webUrl(),
      fc.constantFrom('http://127.0.0.1:9/x', 'ftp://x', 'javascript:alert(1)', 'http://[::1]/'),
    ),
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'TRACE', 'get', '', 'constructor'),
    headers: fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), {
      maxKeys: 2,
    }),
    body: fc.string({ maxLength: 20 }),
  }),
  fc.record({
    data: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), {
      maxKeys: 3,
    }) as fc.Arbitrary<Json>,
    subscribed: fc.boolean(),
  }),
  fc.record({ tag: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom(...HOSTILE_STRINGS)) }),
  fc.record({ reason: fc.string({ maxLength: 20 }) }),
);

/** Every path to a leaf or a member of `value` (the root is the empty path). */
function pathsOf(value: Json, prefix: (string | number)[] = []): (string | number)[][] {
  const paths: (string | number)[][] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => paths.push(...pathsOf(v, [...prefix, i])));
  else if (value !== null && typeof value === 'object')
    for (const [k, v] of Object.entries(value)) paths.push(...pathsOf(v, [...prefix, k]));
  return paths;
}

function replaceAt(value: Json, path: (string | number)[], replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value))
    return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  if (value !== null && typeof value === 'object')
    return { ...value, [head]: replaceAt(value[head as string] as Json, rest, replacement) };
  return value;
}

/** The base with one member (the root included when `rootToo`) replaced by what `junk` makes. */
function mutateOne(
  base: fc.Arbitrary<Json>,
  junk: (current: Json) => fc.Arbitrary<Json>,
  { rootToo = true }: { rootToo?: boolean } = {},
): fc.Arbitrary<Json> {
  return base.chain((value) => {
    const paths = pathsOf(value).filter((p) => rootToo || p.length > 0);
    if (paths.length === 0) return junk(value);
    return fc
      .constantFrom(...paths)
      .chain((path) => junk(value).map((replacement) => replaceAt(value, path, replacement)));
  });
}

const wrongType = (current: Json): fc.Arbitrary<Json> => {
  const all: fc.Arbitrary<Json>[] = [
    fc.constantFrom(...JUNK_NUMBERS),
    fc.string({ maxLength: 8 }),
    fc.boolean(),
    fc.array(fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>, { maxLength: 3 }),
    fc.dictionary(
      fc.string({ maxLength: 5 }),
      fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<Json>,
      {
        maxKeys: 3,
      },
    ),
    fc.constant(null),
  ];
  const kind = Array.isArray(current) ? 3 : current === null ? 5 : typeof current;
  const drop = { number: 0, string: 1, boolean: 2, object: 4 }[kind as string] ?? kind;
  return fc.oneof(...all.filter((_, i) => i !== drop));
};

const deepObject = (levels: number, leaf: Json): Json => {
  let value: Json = leaf;
  for (let i = 0; i < levels; i += 1) value = i % 2 === 0 ? { a: value } : [value];
  return value;
};

const nullEveryField = (value: Json): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? Object.fromEntries(Object.keys(value).map((k) => [k, null]))
    : null;

const withUnknownFields = (value: Json): fc.Arbitrary<Json> =>
  fc
    .dictionary(
      fc.oneof(
        fc.string({ minLength: 1, maxLength: 12 }),
        fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'id', 'projectId'),
      ),
      fc.jsonValue({ maxDepth: 2 }) as fc.Arbitrary<Json>,
      { minKeys: 1, maxKeys: 4 },
    )
    .map((extra) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? { ...extra, ...value, ...extraOwn(extra) }
        : extra,
    );

/** Keys like __proto__ set as own properties, so JSON.stringify sends them. */
function extraOwn(extra: Record<string, Json>): Record<string, Json> {
  const own: Record<string, Json> = {};
  for (const [k, v] of Object.entries(extra))
    Object.defineProperty(own, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return own;
}

/** The categories of bad input that fit `operation`, each as an arbitrary of inputs. */
export function categoriesOf(
  operation: Operation,
  {
    projectParam,
    resourceOf,
  }: { projectParam?: string; resourceOf: (param: string) => ResourceName | undefined },
): Record<string, fc.Arbitrary<SweepInput>> {
  const credential = fc.constantFrom(...operation.credentials);
  const junkId: fc.Arbitrary<PathValue> = fc.oneof(
    fc.constantFrom(...JUNK_IDS),
    fc
      .string({ minLength: 1, maxLength: 30 })
      .map((text): PathValue => ({ kind: 'text', text, raw: false })),
    fc.uuid().map((text): PathValue => ({ kind: 'text', text, raw: false })),
  );
  /**
   * `junk`: every id names nothing or nothing sensible. `mixed`: the fixture's project where the
   * path names one, mostly a seeded resource where it has one, junk elsewhere. `existing`: only
   * what exists, where the fixture has it.
   */
  const pathArbitrary = (
    ids: 'junk' | 'mixed' | 'existing',
  ): fc.Arbitrary<Record<string, PathValue>> => {
    const model: Record<string, fc.Arbitrary<PathValue>> = {};
    for (const p of operation.pathParams) {
      const resource = resourceOf(p.name);
      const real: PathValue | undefined =
        p.name === projectParam
          ? { kind: 'project' }
          : resource
            ? { kind: 'resource', name: resource }
            : undefined;
      model[p.name] =
        ids === 'junk' || !real
          ? junkId
          : ids === 'existing'
            ? fc.constant(real)
            : fc.oneof(
                { arbitrary: fc.constant(real), weight: 3 },
                { arbitrary: junkId, weight: 1 },
              );
    }
    return fc.record(model);
  };
  // Documented parameters as their schemas describe them (each one or left out).
  const queryModel: Record<string, fc.Arbitrary<Json>> = {};
  for (const p of operation.queryParams) queryModel[p.name] = arbitraryOf(p.schema, 0, p.name);
  const queryBase: fc.Arbitrary<SweepInput['query']> = fc
    .record(queryModel, {
      requiredKeys: operation.queryParams.filter((p) => p.required).map((p) => p.name),
    })
    .map((values) =>
      Object.entries(values).map(([name, value]) => ({
        name,
        value: typeof value === 'string' ? value : JSON.stringify(value),
      })),
    );
  const bodyBase = operation.jsonBody ? arbitraryOf(operation.jsonBody) : undefined;
  const json = (value: Json): Body => ({ type: 'json', value });
  const input = (
    category: string,
    parts: {
      path?: fc.Arbitrary<Record<string, PathValue>>;
      query?: fc.Arbitrary<SweepInput['query']>;
      body?: fc.Arbitrary<Body | undefined>;
    },
  ): fc.Arbitrary<SweepInput> =>
    fc.record({
      category: fc.constant(category),
      credential,
      path: parts.path ?? pathArbitrary('mixed'),
      query: parts.query ?? queryBase,
      body: parts.body ?? (bodyBase ? bodyBase.map(json) : fc.constant(undefined)),
    }) as fc.Arbitrary<SweepInput>;

  const categories: Record<string, fc.Arbitrary<SweepInput>> = {};
  if (operation.pathParams.length > 0) {
    categories['path-junk'] = input('path-junk', { path: pathArbitrary('junk') });
    // What exists, with a body built from the schema (often valid): into the handler.
    categories['path-existing'] = input('path-existing', { path: pathArbitrary('existing') });
  }
  // Queries: each documented parameter given junk, repeated, or unknown ones added.
  const queryJunk: fc.Arbitrary<SweepInput['query']> = fc.array(
    fc.record({
      name: operation.queryParams.length
        ? fc.oneof(
            fc.constantFrom(...operation.queryParams.map((p) => p.name)),
            fc.constantFrom('unknown', 'limit', 'page', 'offset', 'sort', '__proto__', 'a[b]'),
          )
        : fc.constantFrom('unknown', 'limit', 'page', 'offset', '__proto__', 'a[b]'),
      value: fc.oneof(
        fc.constantFrom(...JUNK_QUERY_TEXT),
        fc.string({ maxLength: 20 }),
        fc.integer().map(String),
      ),
    }),
    { minLength: 1, maxLength: 4 },
  );
  categories['query-junk'] = input('query-junk', { query: queryJunk });
  if (operation.queryParams.length > 0) {
    categories['query-numbers'] = input('query-numbers', {
      query: fc.array(
        fc.record({
          name: fc.constantFrom(...operation.queryParams.map((p) => p.name)),
          value: fc.oneof(
            fc.constantFrom('-1', '0', '-100', '1e309', '9007199254740993', '2147483648'),
            fc.integer({ min: -1e9, max: -1 }).map(String),
            fc.double({ noNaN: false }).map(String),
          ),
        }),
        { minLength: 1, maxLength: 3 },
      ),
    });
    categories['query-raw'] = input('query-raw', {
      query: fc
        .tuple(
          fc.constantFrom(...operation.queryParams.map((p) => p.name)),
          fc.constantFrom('%', '%E0%A4%A', '%00', '%FF', '%2', 'a%20b', '%F0%9F%98%80'),
        )
        .map(([name, value]) => [{ name, value, raw: true }]),
    });
  }
  if (bodyBase) {
    categories['body-wrong-type'] = input('body-wrong-type', {
      body: mutateOne(bodyBase, wrongType).map(json),
    });
    categories['body-nulls'] = input('body-nulls', {
      body: fc.oneof(
        bodyBase.map((v) => json(nullEveryField(v))),
        mutateOne(bodyBase, () => fc.constant(null), { rootToo: false }).map(json),
      ),
    });
    categories['body-unknown-fields'] = input('body-unknown-fields', {
      body: bodyBase.chain(withUnknownFields).map(json),
    });
    categories['body-hostile-text'] = input('body-hostile-text', {
      body: mutateOne(bodyBase, () => fc.constantFrom(...HOSTILE_STRINGS), {
        rootToo: false,
      }).map(json),
    });
    categories['body-numbers'] = input('body-numbers', {
      body: mutateOne(bodyBase, () => fc.constantFrom(...JUNK_NUMBERS), { rootToo: false }).map(
        json,
      ),
    });
    categories['body-deep'] = input('body-deep', {
      body: mutateOne(bodyBase, (v) => fc.constant(deepObject(200, v === null ? 1 : v)), {
        rootToo: false,
      }).map(json),
    });
    categories['body-malformed-json'] = input('body-malformed-json', {
      body: fc
        .constantFrom(...MALFORMED_JSON)
        .map((text): Body => ({ type: 'text', text, contentType: 'application/json' })),
    });
  }
  // A body nobody asked for, or one in the wrong type, on every operation.
  categories['content-type'] = input('content-type', {
    body: fc
      .tuple(
        fc.constantFrom(...WRONG_CONTENT_TYPES),
        bodyBase ?? fc.jsonValue({ maxDepth: 2 }),
        fc.constantFrom('json', 'form', 'garbage'),
      )
      .map(([contentType, value, shape]): Body => ({
        type: 'text',
        contentType,
        text:
          shape === 'json'
            ? JSON.stringify(value)
            : shape === 'form'
              ? 'a=1&b=%00&c[d]=2'
              : '\u0000\u0001binary\uffff',
      })),
  });
  if (!operation.credentials.includes('none')) {
    // Credentials that name nothing: junk keys and session cookies, and a real session with a
    // junk X-Project-Id.
    const junkText = fc.oneof(
      fc.constantFrom(
        'sk_',
        'pk_',
        `sk_${'A'.repeat(5000)}`,
        'sk_%00',
        'sk_😀',
        'sk_../../',
        '00000000-0000-4000-8000-000000000000',
        'null',
        '%',
        'a'.repeat(5000),
      ),
      fc.string({ minLength: 1, maxLength: 40 }).filter((t) => /^[\x21-\x7e]+$/.test(t)),
    );
    const headerSafe = (text: string): string =>
      // fetch refuses header values outside Latin-1 and with control characters.
      [...text].map((c) => (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) > 0xff ? '?' : c)).join('');
    categories['auth-junk'] = fc.record({
      category: fc.constant('auth-junk'),
      credential: fc.constantFrom<Credential>('none', 'session'),
      path: pathArbitrary('mixed'),
      query: queryBase,
      body: bodyBase ? bodyBase.map(json) : fc.constant(undefined),
      headers: fc
        .tuple(fc.constantFrom('Authorization', 'Cookie', 'X-Project-Id', 'Bearer'), junkText)
        .map(([kind, text]): Record<string, string> => {
          const value = headerSafe(text);
          if (kind === 'Authorization') return { Authorization: value };
          if (kind === 'Bearer') return { Authorization: `Bearer ${value}` };
          if (kind === 'Cookie') return { Cookie: `mw_session=${value}` };
          return { 'X-Project-Id': value };
        }),
    }) as fc.Arbitrary<SweepInput>;
  }
  if (operation.uploadField) {
    categories['multipart'] = input('multipart', {
      body: fc
        .constantFrom(...MULTIPART_VARIANTS)
        .map((variant): Body => ({ type: 'multipart', variant })),
    });
  }
  return categories;
}
