import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { refusedAddressReason } from '../domain/automation/webhook-address.js';
import {
  WEBHOOK_RESPONSE_BYTES_KEPT,
  WEBHOOK_TIMEOUT_MS,
} from '../domain/automation/webhook-request.pure.js';
import {
  WebhookRefusedError,
  type DnsResolver,
  type WebhookSender,
} from '../domain/shared/ports.js';

/** The addresses a URL's host stands for: itself when it is an IP literal, else its A and AAAA. */
async function addressesOf(host: string, dns: DnsResolver): Promise<string[]> {
  if (isIP(host)) return [host];
  // A resolver that cannot answer (DnsUnavailableError) is worth another try; no address is not.
  const found = await dns.resolveAddresses(host);
  if (found.length === 0) throw new WebhookRefusedError(`${host} has no address`);
  return found;
}

/**
 * Webhooks over node's http(s): the host is resolved once through `dns`, every address is
 * checked (unless `allowPrivate`), and the connection goes to the first one, checked, through a
 * lookup that answers only it, so a second resolution cannot point it elsewhere (DNS
 * rebinding). No redirects, `timeoutMs` for the whole exchange, and only the first bytes of the
 * answer are read. No connection reuse unless `keepAlive` (event webhooks, many requests to the
 * same few endpoints): a kept connection was opened to an address checked when it was opened,
 * and every new one goes to the address checked for its own request.
 */
export function createWebhookSender({
  dns,
  allowPrivate,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
  keepAlive = false,
}: {
  dns: DnsResolver;
  allowPrivate: boolean;
  timeoutMs?: number;
  keepAlive?: boolean;
}): WebhookSender {
  const agents = keepAlive
    ? {
        'http:': new http.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 }),
        'https:': new https.Agent({ keepAlive: true, maxSockets: 64, maxFreeSockets: 64 }),
      }
    : undefined;
  return async (request) => {
    const url = new URL(request.url);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new WebhookRefusedError(`${url.protocol} URLs are not allowed; use http or https`);
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const addresses = await addressesOf(host, dns);
    if (!allowPrivate) {
      for (const address of addresses) {
        const reason = refusedAddressReason(address);
        if (reason) throw new WebhookRefusedError(reason);
      }
    }
    const address = addresses[0] as string;
    const family = isIP(address);
    const client = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = client.request(
        url,
        {
          method: request.method,
          headers: request.headers,
          agent: agents ? agents[url.protocol as 'http:' | 'https:'] : false,
          signal: AbortSignal.timeout(timeoutMs),
          lookup: (_hostname, options, callback) => {
            if ((options as { all?: boolean }).all) {
              (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
                { address, family },
              ]);
            } else {
              (callback as (e: null, a: string, f: number) => void)(null, address, family);
            }
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          let kept = 0;
          res.on('data', (chunk: Buffer) => {
            if (kept < WEBHOOK_RESPONSE_BYTES_KEPT) {
              chunks.push(chunk);
              kept += chunk.length;
            }
            if (kept >= WEBHOOK_RESPONSE_BYTES_KEPT) res.destroy();
          });
          const done = (): void =>
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).subarray(0, WEBHOOK_RESPONSE_BYTES_KEPT).toString('utf8'),
            });
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        },
      );
      req.on('error', reject);
      req.end(request.body);
    });
  };
}
