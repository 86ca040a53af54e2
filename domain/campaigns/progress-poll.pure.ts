/**
 * How many times what the last poll took a campaign's watcher waits before the next. A poll
 * counts the campaign's queued emails (every entry of their index, the dead ones of emails sent
 * since the last vacuum included), so it costs more the bigger the send: tens of ms at 100,000
 * recipients, hundreds at a million. Waiting this many times its cost keeps the watcher's share
 * of one database core under 1/POLL_COST_FACTOR, whatever the size.
 */
export const POLL_COST_FACTOR = 20;

/** The longest wait between two polls: a finished send is seen SENT within this much. */
export const POLL_WAIT_MAX_MS = 30_000;

/**
 * The wait before a watcher's next poll: `pollMs` as configured, longer when the last poll took
 * more than 1/POLL_COST_FACTOR of it (`lastPollMs`), up to POLL_WAIT_MAX_MS (or `pollMs` if more),
 * never past the watch's end (`leftMs`).
 */
export function nextPollWaitMs({
  pollMs,
  lastPollMs,
  leftMs,
}: {
  pollMs: number;
  lastPollMs: number;
  leftMs: number;
}): number {
  const byCost = Math.min(lastPollMs * POLL_COST_FACTOR, POLL_WAIT_MAX_MS);
  return Math.max(0, Math.min(Math.max(pollMs, byCost), leftMs));
}
