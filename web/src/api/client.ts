import createClient, { type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema';
import { currentProjectId } from './project-store';

export type ErrorEnvelope = components['schemas']['Error'];
export type FieldError = NonNullable<ErrorEnvelope['error']['errors']>[number];

/** An API answer that was not a success: the envelope's message, field errors and status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

// Project-scoped routes name the project with X-Project-Id; the session cookie names the user.
const projectHeader: Middleware = {
  onRequest({ request }) {
    const projectId = currentProjectId();
    if (projectId && !request.headers.has('X-Project-Id')) {
      request.headers.set('X-Project-Id', projectId);
    }
    return request;
  },
};

/** The only way the dashboard calls the API: typed from the API's own OpenAPI document. */
export const api = createClient<paths>({
  baseUrl: window.location.origin,
  credentials: 'same-origin',
});
api.use(projectHeader);

function toApiError(error: unknown, response: Response): ApiError {
  const envelope = (error as Partial<ErrorEnvelope> | undefined)?.error;
  return new ApiError(
    envelope?.message ?? `Request failed (${response.status})`,
    response.status,
    envelope?.code ?? 'UNKNOWN',
    envelope?.errors ?? [],
  );
}

/** The data of an answer, or an ApiError carrying the envelope (what queries and mutations throw). */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw toApiError(error, response);
  return data as T;
}
