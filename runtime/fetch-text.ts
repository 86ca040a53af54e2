import { DomainError, unavailable } from '../domain/shared/errors.js';
import type { FetchText } from '../domain/shared/ports.js';

/**
 * Outbound GET with a timeout and no redirects. An upstream that answers 5xx is failing for now
 * (503: the sender retries); any other refusal means what was asked for is not there (401: what
 * it should have proved cannot be checked). One that cannot be reached at all rejects as fetch
 * does, for the caller to tell apart.
 */
export function createTextFetcher({ timeoutMs = 10_000 }: { timeoutMs?: number } = {}): FetchText {
  return async (url) => {
    const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    if (res.status >= 500) {
      throw unavailable(`${url} answered ${res.status}`, 'Try again later.');
    }
    if (!res.ok) throw new DomainError('UNAUTHORIZED', `Could not fetch ${url}`);
    return res.text();
  };
}
