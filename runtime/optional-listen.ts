import type { Logger } from './logger.js';

/** A listen that failed because the port is taken, or privileged for this user. */
const portUnavailable = (error: unknown): boolean =>
  error instanceof Error &&
  'code' in error &&
  (error.code === 'EADDRINUSE' || error.code === 'EACCES');

/**
 * Starts a server on a port; when the port is `optional` (picked by `npm start` because it looked
 * free) and has been taken since, warns and answers undefined instead of failing the start.
 */
export async function listenUnlessTaken<T>({
  optional,
  what,
  port,
  logger,
  listen,
}: {
  optional: boolean;
  /** What is off without it, for the warning ("SMTP submission with STARTTLS"). */
  what: string;
  port: number;
  logger: Logger;
  listen: () => Promise<T>;
}): Promise<T | undefined> {
  try {
    return await listen();
  } catch (error) {
    if (!optional || !portUnavailable(error)) throw error;
    logger.warn({ port }, `port ${port} was taken before it could be listened on: ${what} is off`);
    return undefined;
  }
}
