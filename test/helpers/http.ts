export interface HttpResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (for malformed or oversized bodies). */
  rawBody?: string;
  key?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

export function createClient(baseUrl: string, defaults: { headers?: Record<string, string> } = {}) {
  async function request<T = any>(
    method: string,
    path: string,
    options: RequestOptions = {},
  ): Promise<HttpResponse<T>> {
    const headers: Record<string, string> = { ...defaults.headers, ...options.headers };
    if (options.key) headers.Authorization = `Bearer ${options.key}`;
    if (options.cookie) headers.Cookie = options.cookie;
    let body: string | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) body = JSON.stringify(options.body);
    if (body !== undefined) headers['Content-Type'] ??= 'application/json';
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body,
      redirect: 'manual',
    });
    const text = await response.text();
    let parsed: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text)
      parsed = JSON.parse(text);
    return { status: response.status, headers: response.headers, body: parsed as T, text };
  }
  /** A multipart/form-data POST with one file. */
  async function upload<T = any>(
    path: string,
    {
      field,
      content,
      filename = 'upload.csv',
      key,
      headers = {},
    }: {
      field: string;
      content: Buffer | string;
      filename?: string;
      key?: string;
      headers?: Record<string, string>;
    },
  ): Promise<HttpResponse<T>> {
    const form = new FormData();
    form.append(field, new Blob([content]), filename);
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        ...defaults.headers,
        ...headers,
        ...(key ? { Authorization: `Bearer ${key}` } : {}),
      },
      body: form,
    });
    const text = await response.text();
    const body =
      (response.headers.get('content-type') ?? '').includes('json') && text
        ? JSON.parse(text)
        : text;
    return { status: response.status, headers: response.headers, body: body as T, text };
  }

  return {
    baseUrl,
    request,
    upload,
    get: <T = any>(path: string, o?: RequestOptions) => request<T>('GET', path, o),
    post: <T = any>(path: string, o?: RequestOptions) => request<T>('POST', path, o),
    patch: <T = any>(path: string, o?: RequestOptions) => request<T>('PATCH', path, o),
    put: <T = any>(path: string, o?: RequestOptions) => request<T>('PUT', path, o),
    delete: <T = any>(path: string, o?: RequestOptions) => request<T>('DELETE', path, o),
  };
}

export type Client = ReturnType<typeof createClient>;

/** The `name=value` part of a Set-Cookie header, ready to send back as a Cookie header. */
export function sessionCookieOf(response: HttpResponse): string {
  const header = response.headers.getSetCookie().find((c) => c.startsWith('mw_session='));
  if (!header) throw new Error('No session cookie in the response');
  return header.split(';')[0] as string;
}
