/** The parts of the API's OpenAPI document the sweep reads. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  additionalProperties?: boolean | JsonSchema;
  contentMediaType?: string;
}

interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: JsonSchema;
}

interface OperationObject {
  operationId: string;
  security: Record<string, unknown>[];
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, OperationObject>>;
}

/** How a call proves who it is: the options the operation's `security` lists. */
export type Credential = 'none' | 'secretKey' | 'publicKey' | 'session' | 'sessionWithProject';

export interface Operation {
  id: string;
  method: string;
  /** The templated path, `{name}` for each path parameter. */
  path: string;
  pathParams: Parameter[];
  queryParams: Parameter[];
  /** The JSON body's schema, when the operation reads one. */
  jsonBody?: JsonSchema;
  /** The multipart field that carries the file, when the operation is an upload. */
  uploadField?: string;
  credentials: Credential[];
}

function credentialOf(requirement: Record<string, unknown>): Credential {
  const names = Object.keys(requirement).sort().join('+');
  if (names === 'secretKey') return 'secretKey';
  if (names === 'publicKey') return 'publicKey';
  if (names === 'session') return 'session';
  if (names === 'projectHeader+session') return 'sessionWithProject';
  throw new Error(`Unknown security requirement ${names}`);
}

/** Every operation of the document, in its order. */
export function operationsOf(document: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const multipart = operation.requestBody?.content['multipart/form-data']?.schema;
      operations.push({
        id: operation.operationId,
        method: method.toUpperCase(),
        path,
        pathParams: operation.parameters.filter((p) => p.in === 'path'),
        queryParams: operation.parameters.filter((p) => p.in === 'query'),
        jsonBody: operation.requestBody?.content['application/json']?.schema,
        uploadField: multipart ? multipart.required?.[0] : undefined,
        credentials:
          operation.security.length === 0 ? ['none'] : operation.security.map(credentialOf),
      });
    }
  }
  return operations;
}
