import { z } from 'zod';
import type { AnyRoute } from './route.js';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: z.ZodType): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  return rest;
}

function parametersOf(schema: z.ZodType | undefined, location: 'path' | 'query'): unknown[] {
  if (!schema) return [];
  const object = jsonSchema(schema) as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

const SECURITY: Record<AnyRoute['auth'], unknown[]> = {
  none: [],
  session: [{ session: [] }],
  projectPath: [{ secretKey: [] }, { session: [] }],
  project: [{ secretKey: [] }, { session: [], projectHeader: [] }],
  track: [{ publicKey: [] }, { secretKey: [] }, { session: [], projectHeader: [] }],
};

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  required: ['success', 'error', 'timestamp'],
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message', 'statusCode', 'requestId'],
      properties: {
        code: { type: 'string' },
        message: { type: 'string' },
        statusCode: { type: 'integer' },
        requestId: { type: 'string' },
        errors: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              field: { type: 'string' },
              message: { type: 'string' },
              code: { type: 'string' },
            },
          },
        },
        suggestion: { type: 'string' },
      },
    },
    timestamp: { type: 'string', format: 'date-time' },
  },
};

/** The OpenAPI 3.1 document, generated from the very schemas the routes validate with. */
export function buildOpenApi({ routes, serverUrl }: { routes: AnyRoute[]; serverUrl: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const status = String(route.status ?? 200);
    const success =
      route.produces !== undefined
        ? { description: 'OK', content: { [route.produces]: {} } }
        : status === '204'
          ? { description: 'No content' }
          : {
              description: 'OK',
              content: {
                'application/json': { schema: route.response ? jsonSchema(route.response) : {} },
              },
            };
    const operation: Record<string, unknown> = {
      operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      summary: route.summary,
      tags: [route.tag],
      security: SECURITY[route.auth],
      parameters: [...parametersOf(route.params, 'path'), ...parametersOf(route.query, 'query')],
      responses: {
        [status]: success,
        default: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    };
    if (route.upload) {
      operation.requestBody = {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: [route.upload.field],
              properties: {
                [route.upload.field]: {
                  type: 'string',
                  contentMediaType: 'application/octet-stream',
                  maxLength: route.upload.maxBytes,
                },
              },
            },
          },
        },
      };
    }
    if (route.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(route.body) } },
      };
    }
    paths[path] = { ...paths[path], [route.method]: operation };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Mailwright API',
      version: '1.0.0',
      description: 'Transactional and campaign email, contacts, events and automation.',
    },
    servers: [{ url: serverUrl }],
    paths,
    components: {
      schemas: { Error: ERROR_ENVELOPE },
      securitySchemes: {
        secretKey: { type: 'http', scheme: 'bearer', description: 'Project secret key (sk_...)' },
        publicKey: {
          type: 'http',
          scheme: 'bearer',
          description: 'Project public key (pk_...), POST /v1/track and POST /v1/subscribe only',
        },
        session: { type: 'apiKey', in: 'cookie', name: 'mw_session' },
        projectHeader: { type: 'apiKey', in: 'header', name: 'X-Project-Id' },
      },
    },
  };
}
