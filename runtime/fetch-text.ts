import { DomainError } from '../domain/shared/errors.js';
import type { FetchText } from '../domain/shared/ports.js';

/** Outbound GET with a timeout and no redirects; a failure is an authentication failure upstream. */
export function createTextFetcher({ timeoutMs = 10_000 }: { timeoutMs?: number } = {}): FetchText {
  return async (url) => {
    const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok) throw new DomainError('UNAUTHORIZED', `Could not fetch ${url}`);
    return res.text();
  };
}
