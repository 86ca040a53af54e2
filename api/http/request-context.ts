import { AsyncLocalStorage } from 'node:async_hooks';

/** What a log line about a failure names of the request it happened in. */
export interface RequestContext {
  requestId: string;
  method: string;
  path: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs the rest of a request with its context available to `currentRequest`. */
export const withRequestContext = <T>(
  context: RequestContext,
  work: () => Promise<T>,
): Promise<T> => storage.run(context, work);

/** The request whose work is running now, when there is one. */
export const currentRequest = (): RequestContext | undefined => storage.getStore();
