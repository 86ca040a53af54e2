import { DefaultLogger, Runtime } from '@temporalio/worker';
import { FORCED_EXIT_MS } from './entry-points.js';
import type { Logger } from './logger.js';

/**
 * The process owns its signals: Temporal's own handlers are turned off so that shutdown runs in
 * our order (stop taking requests, drain the worker, then stop the servers it depends on).
 */
export function installTemporalRuntime(): void {
  Runtime.install({ shutdownSignals: [], logger: new DefaultLogger('WARN') });
}

export function onShutdown(
  logger: Logger,
  steps: () => Promise<void>,
  { watchParent = false }: { watchParent?: boolean } = {},
): void {
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      logger.error('shutdown took too long; exiting');
      process.exit(1);
    }, FORCED_EXIT_MS);
    force.unref();
    steps()
      .then(() => process.exit(0))
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  // A part started by `npm start` stops when its supervisor goes, however it went.
  if (process.connected) process.on('disconnect', () => stop('supervisor exited'));
  if (watchParent) {
    // Should whatever started us (npm) go away without passing a signal on, killed outright, we
    // stop too, so the embedded servers never outlive the command.
    const parent = process.ppid;
    setInterval(() => {
      if (process.ppid !== parent) stop('parent exited');
    }, 500).unref();
  }
}

/** Tells a supervising `npm start` (when there is one) that this part is up. */
export function reportReady(details: Record<string, unknown> = {}): void {
  if (process.connected) process.send?.({ type: 'ready', ...details });
}
