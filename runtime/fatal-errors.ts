import type { Logger } from './logger.js';

/**
 * An error nothing handled leaves the process in a state nobody knows: log it with what was
 * running (a request, an activity) and exit, so the supervisor (or the orchestrator in
 * production) starts a clean process. Accepted work is durable, so nothing is lost by exiting.
 */
export function exitOnFatalErrors({
  logger,
  context = () => undefined,
}: {
  logger: Logger;
  /** What was running when it happened, when that can be told. */
  context?: () => Record<string, unknown> | undefined;
}): void {
  const die = (kind: string, error: unknown): void => {
    let running: Record<string, unknown> | undefined;
    try {
      running = context();
    } catch {
      running = undefined;
    }
    logger.fatal({ err: error, ...running }, `${kind}; exiting`);
    process.exit(1);
  };
  process.on('uncaughtException', (error) => die('uncaught exception', error));
  process.on('unhandledRejection', (reason) => die('unhandled promise rejection', reason));
}
