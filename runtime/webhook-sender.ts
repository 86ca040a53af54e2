import http, { type ClientRequest } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { refusedAddressReason } from '../domain/automation/webhook-address.js';
import {
  WEBHOOK_RESPONSE_BYTES_KEPT,
  WEBHOOK_TIMEOUT_MS,
} from '../domain/automation/webhook-request.pure.js';
import {
  WebhookRefusedError,
  type DnsResolver,
  type WebhookRequest,
  type WebhookResponse,
  type WebhookSender,
} from '../domain/shared/ports.js';

/** How long a keep-alive sender trusts the address it checked for a URL before resolving again. */
export const PINNED_ADDRESS_TTL_MS = 10_000;

/** Where one URL's requests go: the checked address its connections are pinned to. */
interface Target {
  url: URL;
  client: typeof http | typeof https;
  lookup: LookupFunction;
  /** When the address must be resolved and checked again (ms since the epoch). */
  expires: number;
}

/** The addresses a URL's host stands for: itself when it is an IP literal, else its A and AAAA. */
async function addressesOf(host: string, dns: DnsResolver): Promise<string[]> {
  if (isIP(host)) return [host];
  // A resolver that cannot answer (DnsUnavailableError) is worth another try; no address is not.
  const found = await dns.resolveAddresses(host);
  if (found.length === 0) throw new WebhookRefusedError(`${host} has no address`);
  return found;
}

/** A lookup that answers only `address`, so no second resolution can point a connection elsewhere. */
function pinnedLookup(address: string): LookupFunction {
  const family = isIP(address);
  return (_hostname, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else {
      (callback as (e: null, a: string, f: number) => void)(null, address, family);
    }
  };
}

/**
 * Requests past their deadline, destroyed by one timer sweeping them every `tickMs` (a timer and
 * an AbortSignal per request cost more than the request itself at thousands a second).
 */
function deadlines(timeoutMs: number) {
  const tickMs = Math.max(5, Math.min(1000, Math.floor(timeoutMs / 10)));
  const open = new Map<ClientRequest, number>();
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    const now = Date.now();
    for (const [req, deadline] of open) {
      if (deadline > now) continue;
      open.delete(req);
      req.destroy(new Error(`No answer within ${timeoutMs} ms`));
    }
    if (open.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return {
    watch(req: ClientRequest): void {
      open.set(req, Date.now() + timeoutMs);
      sweeper ??= setInterval(sweep, tickMs).unref();
    },
    done(req: ClientRequest): void {
      open.delete(req);
    },
  };
}

/**
 * Webhooks over node's http(s): the host is resolved through `dns`, every address is checked
 * (unless `allowPrivate`), and the connection goes to the first one, checked, through a lookup
 * that answers only it, so a second resolution cannot point it elsewhere (DNS rebinding). No
 * redirects, `timeoutMs` for the whole exchange, and only the first bytes of the answer are
 * read. No connection reuse unless `keepAlive` (event webhooks, many requests to the same few
 * endpoints): then a URL's checked address is kept for `pinnedTtlMs` (every request within it
 * goes to that address, no lookup), a kept connection was opened to an address checked when it
 * was opened, and every new one goes to the address checked for its URL.
 */
export function createWebhookSender({
  dns,
  allowPrivate,
  timeoutMs = WEBHOOK_TIMEOUT_MS,
  keepAlive = false,
  pinnedTtlMs = PINNED_ADDRESS_TTL_MS,
  maxSockets = 64,
}: {
  dns: DnsResolver;
  allowPrivate: boolean;
  timeoutMs?: number;
  keepAlive?: boolean;
  pinnedTtlMs?: number;
  /** Connections per host and port at most (keep-alive only). */
  maxSockets?: number;
}): WebhookSender {
  const agents = keepAlive
    ? {
        'http:': new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
        'https:': new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets }),
      }
    : undefined;
  const pinned = new Map<string, Target>();
  const timeouts = deadlines(timeoutMs);

  async function targetOf(href: string): Promise<Target> {
    const cached = pinned.get(href);
    if (cached && cached.expires > Date.now()) return cached;
    const url = new URL(href);
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
    const target: Target = {
      url,
      client: url.protocol === 'https:' ? https : http,
      lookup: pinnedLookup(addresses[0] as string),
      expires: Date.now() + pinnedTtlMs,
    };
    if (keepAlive) {
      // A few endpoints per lane; forget the expired ones now and then.
      if (pinned.size > 1000) pinned.clear();
      pinned.set(href, target);
    }
    return target;
  }

  function exchange(target: Target, request: WebhookRequest): Promise<WebhookResponse> {
    return new Promise((resolve, reject) => {
      const req = target.client.request(
        target.url,
        {
          method: request.method,
          headers: request.headers,
          agent: agents ? agents[target.url.protocol as 'http:' | 'https:'] : false,
          lookup: target.lookup,
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
          const done = (): void => {
            timeouts.done(req);
            resolve({
              status: res.statusCode ?? 0,
              body: (chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks))
                .subarray(0, WEBHOOK_RESPONSE_BYTES_KEPT)
                .toString('utf8'),
            });
          };
          res.on('end', done);
          res.on('close', done);
          res.on('error', done);
        },
      );
      timeouts.watch(req);
      req.on('error', (error) => {
        timeouts.done(req);
        reject(error);
      });
      req.end(request.body);
    });
  }

  return (request) => {
    const cached = pinned.get(request.url);
    // The usual case of a keep-alive sender: the URL's address checked a moment ago.
    if (cached && cached.expires > Date.now()) return exchange(cached, request);
    return targetOf(request.url).then((target) => exchange(target, request));
  };
}
