import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';

const COMPRESSIBLE = /^(text\/|application\/(json|javascript))/;

/**
 * A loopback proxy in front of `target` that gzips text answers (level 6) for clients that accept
 * it, as a compressing server would: what the dashboard's figures would be if the API gzipped
 * its assets. Answers the proxy's base URL and a stop function.
 */
export async function startGzipProxy(
  target: string,
): Promise<{ url: string; stop: () => Promise<void> }> {
  const upstream = new URL(target);
  const server = http.createServer((req, res) => {
    const forwarded = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host, 'accept-encoding': 'identity' },
      },
      (answer) => {
        const type = String(answer.headers['content-type'] ?? '');
        const gzip =
          COMPRESSIBLE.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding']));
        const headers = { ...answer.headers };
        if (gzip) {
          delete headers['content-length'];
          headers['content-encoding'] = 'gzip';
          headers.vary = 'Accept-Encoding';
        }
        res.writeHead(answer.statusCode ?? 502, headers);
        (gzip ? answer.pipe(createGzip({ level: 6 })) : answer).pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
