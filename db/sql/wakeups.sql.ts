import type { Sql } from './sql.js';

/** The channel on which delivery lanes hear that mail was queued (payload: the task queue). */
export const EMAIL_QUEUED_CHANNEL = 'email_queued';

/**
 * The channel on which the automation dispatcher hears that events were recorded or commands
 * (cancellations, manual starts) are waiting (payload: the task queue).
 */
export const AUTOMATION_PENDING_CHANNEL = 'automation_pending';

/**
 * The channel on which webhook lanes hear that the API queued deliveries (a test event, a retry;
 * payload: the task queue). Apart from AUTOMATION_PENDING_CHANNEL: every tracked event notifies
 * that one, and the webhook lanes of each dispatch lane would otherwise run a claim for each.
 */
export const WEBHOOKS_PENDING_CHANNEL = 'webhooks_pending';

/** What a listening connection runs to hear about `channel`. */
export const listenTo = (channel: string): string => `LISTEN ${channel}`;

/** Tells the listeners of `channel` for each of `queues` that work waits (when this commits). */
export async function notifyQueues(
  sql: Sql,
  { channel, queues }: { channel: string; queues: string[] },
): Promise<void> {
  await sql.query('SELECT pg_notify($1, q) FROM unnest($2::text[]) AS q', [channel, queues]);
}
