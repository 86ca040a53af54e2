import { Context } from '@temporalio/activity';

/**
 * Runs `work` inside the current activity, heartbeating every 2 s while it runs (so a killed
 * worker is noticed within the heartbeat timeout, even while one long statement runs) with the
 * latest details `work` noted; `note` also beats at once.
 */
export async function heartbeating<T>(
  work: (note: (details: unknown) => void, context: Context) => Promise<T>,
): Promise<T> {
  const context = Context.current();
  let details: unknown;
  const beat = setInterval(() => context.heartbeat(details), 2000);
  try {
    return await work((d) => {
      details = d;
      context.heartbeat(d);
    }, context);
  } finally {
    clearInterval(beat);
  }
}
