import net from 'node:net';

export interface RawAnswer {
  status: number;
  body: any;
}

/**
 * Writes one HTTP/1.1 request over a plain socket, as a broken or hostile client would: `send`
 * is the part of the body that is written, `declaredLength` what Content-Length promises, and
 * `then` whether the socket then waits for the answer, half-closes (`end`) or is torn down
 * (`destroy`, after a moment so the server has begun reading). Resolves with the answer, or
 * undefined when the connection closed without one.
 */
export function rawRequest({
  baseUrl,
  path,
  headers,
  send,
  declaredLength = send.length,
  then = 'wait',
}: {
  baseUrl: string;
  path: string;
  headers: Record<string, string>;
  send: Buffer;
  declaredLength?: number;
  then?: 'wait' | 'end' | 'destroy';
}): Promise<RawAnswer | undefined> {
  const url = new URL(baseUrl);
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: ${url.host}`,
    `Content-Length: ${declaredLength}`,
    'Connection: close',
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(parseAnswer(received)));
    socket.write(head);
    socket.write(send, () => {
      if (then === 'end') socket.end();
      if (then === 'destroy') setTimeout(() => socket.destroy(), 50);
    });
    socket.setTimeout(30_000, () => socket.destroy());
  });
}

function parseAnswer(text: string): RawAnswer | undefined {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
  if (!match) return undefined;
  const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
  let body: unknown = bodyText;
  try {
    body = JSON.parse(bodyText);
  } catch {
    // not JSON: kept as text
  }
  return { status: Number(match[1]), body };
}

/** One multipart part carrying a file. */
export const filePart = ({
  boundary,
  field,
  filename,
  content,
  type = 'application/octet-stream',
}: {
  boundary: string;
  field: string;
  filename: string;
  content: Buffer | string;
  type?: string;
}): Buffer =>
  Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ]);

/** One multipart text field. */
export const textPart = ({
  boundary,
  name,
  value,
}: {
  boundary: string;
  name: string;
  value: string;
}): Buffer =>
  Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    'utf8',
  );

export const closing = (boundary: string): Buffer => Buffer.from(`--${boundary}--\r\n`);
