import type { Sql } from './sql.js';

/** The channel on which delivery lanes hear that mail was queued (payload: the task queue). */
export const EMAIL_QUEUED_CHANNEL = 'email_queued';

/** What a listening connection runs to hear about queued mail. */
export const LISTEN_FOR_QUEUED_EMAIL = `LISTEN ${EMAIL_QUEUED_CHANNEL}`;

/** Tells the lanes of each of `queues` that mail is waiting (delivered when this commits). */
export async function notifyEmailQueued(sql: Sql, { queues }: { queues: string[] }): Promise<void> {
  await sql.query('SELECT pg_notify($1, q) FROM unnest($2::text[]) AS q', [
    EMAIL_QUEUED_CHANNEL,
    queues,
  ]);
}
