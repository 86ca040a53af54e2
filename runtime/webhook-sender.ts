import { isIP, type LookupFunction } from 'node:net';
import { Client, Pool, type Dispatcher } from 'undici';
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
  /** The request's path and query (the origin is the dispatcher's). */
  path: string;
  /** Connections to the URL's origin, made to the checked address only. */
  dispatcher: Dispatcher;
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

/** Something a deadline can end. */
interface Abortable {
  abort(reason: Error): void;
}

/**
 * Requests past their deadline, aborted by one timer sweeping them every `tickMs` (a timer per
 * request costs more than the request itself at thousands a second).
 */
function deadlines(timeoutMs: number) {
  const tickMs = Math.max(5, Math.min(1000, Math.floor(timeoutMs / 10)));
  const open = new Map<Abortable, number>();
  let sweeper: NodeJS.Timeout | undefined;
  const sweep = (): void => {
    const now = Date.now();
    for (const [request, deadline] of open) {
      if (deadline > now) continue;
      open.delete(request);
      request.abort(new Error(`No answer within ${timeoutMs} ms`));
    }
    if (open.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };
  return {
    watch(request: Abortable): void {
      open.set(request, Date.now() + timeoutMs);
      sweeper ??= setInterval(sweep, tickMs).unref();
    },
    done(request: Abortable): void {
      open.delete(request);
    },
  };
}

/**
 * One request's answer as undici hands it over (no stream in between): its status and first
 * `WEBHOOK_RESPONSE_BYTES_KEPT` bytes; the rest is never read. An answer cut short (the
 * deadline, a reset, enough bytes) keeps what came: once a status came, it is the outcome.
 */
class Answer implements Dispatcher.DispatchHandler, Abortable {
  private controller: Dispatcher.DispatchController | undefined;
  private abortedBefore: Error | undefined;
  private status = 0;
  private readonly chunks: Buffer[] = [];
  private kept = 0;
  private resolve: (response: WebhookResponse) => void = () => undefined;
  private reject: (error: Error) => void = () => undefined;
  /** Settled once: the answer, or the error that came before any status. */
  readonly done = new Promise<WebhookResponse>((resolve, reject) => {
    this.resolve = resolve;
    this.reject = reject;
  });

  abort(reason: Error): void {
    if (this.controller) {
      this.controller.abort(reason);
      return;
    }
    // Still waiting for a connection: failed now, and ended as soon as it has one.
    this.abortedBefore = reason;
    this.fail(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.abortedBefore) controller.abort(this.abortedBefore);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    // 1xx answers are interim.
    if (statusCode >= 200) this.status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.kept < WEBHOOK_RESPONSE_BYTES_KEPT) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    }
    if (this.kept >= WEBHOOK_RESPONSE_BYTES_KEPT)
      controller.abort(new Error('Enough of the answer'));
  }

  onResponseEnd(): void {
    this.resolve(this.response());
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.fail(error);
  }

  fail(error: Error): void {
    if (this.status > 0) this.resolve(this.response());
    else this.reject(error);
  }

  private response(): WebhookResponse {
    const all = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    return {
      status: this.status,
      body: all.subarray(0, WEBHOOK_RESPONSE_BYTES_KEPT).toString('utf8'),
    };
  }
}

/**
 * Webhooks over undici: the host is resolved through `dns`, every address is checked (unless
 * `allowPrivate`), and the connection goes to the first one, checked, through a lookup that
 * answers only it, so a second resolution cannot point it elsewhere (DNS rebinding). No
 * redirects, `timeoutMs` for the whole exchange, and only the first bytes of the answer are
 * read. No connection reuse unless `keepAlive` (event webhooks, many requests to the same few
 * endpoints): then a URL's checked address is kept for `pinnedTtlMs` (every request within it
 * goes to that address, no lookup), and its connections are pooled per origin and address, so a
 * kept connection was opened to an address checked when it was opened and every new one goes to
 * the address checked for its URL.
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
  /** Connections per origin and address at most (keep-alive only). */
  maxSockets?: number;
}): WebhookSender {
  const pinned = new Map<string, Target>();
  const pools = new Map<string, Pool>();
  const timeouts = deadlines(timeoutMs);
  const options = (address: string) => ({
    connect: { lookup: pinnedLookup(address), timeout: timeoutMs },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });

  /** The keep-alive pool of an origin at one checked address. */
  function poolOf(origin: string, address: string): Pool {
    const key = `${origin} ${address}`;
    let pool = pools.get(key);
    if (!pool) {
      // A few endpoints per lane; drop them all now and then (idle connections close anyway).
      if (pools.size > 1000) {
        for (const old of pools.values()) void old.close();
        pools.clear();
      }
      pool = new Pool(origin, { ...options(address), connections: maxSockets });
      pools.set(key, pool);
    }
    return pool;
  }

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
    const address = addresses[0] as string;
    const target: Target = {
      path: `${url.pathname}${url.search}`,
      dispatcher: keepAlive
        ? poolOf(url.origin, address)
        : new Client(url.origin, { ...options(address), pipelining: 0 }),
      expires: Date.now() + pinnedTtlMs,
    };
    if (keepAlive) {
      if (pinned.size > 1000) pinned.clear();
      pinned.set(href, target);
    }
    return target;
  }

  function exchange(target: Target, request: WebhookRequest): Promise<WebhookResponse> {
    const answer = new Answer();
    timeouts.watch(answer);
    try {
      target.dispatcher.dispatch(
        {
          path: target.path,
          method: request.method as Dispatcher.HttpMethod,
          headers: request.headers,
          body: request.body ?? null,
        },
        answer,
      );
    } catch (error) {
      answer.fail(error as Error);
    }
    return answer.done.finally(() => {
      timeouts.done(answer);
      // A connection of its own is closed with its one request.
      if (!keepAlive) void target.dispatcher.destroy();
    });
  }

  return (request) => {
    const cached = pinned.get(request.url);
    // The usual case of a keep-alive sender: the URL's address checked a moment ago.
    if (cached && cached.expires > Date.now()) return exchange(cached, request);
    return targetOf(request.url).then((target) => exchange(target, request));
  };
}
