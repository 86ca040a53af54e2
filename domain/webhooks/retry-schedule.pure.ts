// When a failed webhook delivery is tried again, and when its endpoint gives up. Pure data, so
// that tests and operators can shorten it (WEBHOOK_RETRY_DELAYS and friends).

export interface WebhookRetrySchedule {
  /** Seconds before the 2nd, 3rd... attempt; the last one repeats. */
  delaysSeconds: readonly number[];
  /** A delivery is tried for this long after it was queued, then FAILED. */
  windowSeconds: number;
  /** An endpoint whose attempts have all failed for this long is disabled. */
  disableAfterSeconds: number;
}

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then every 10 h, for 3 days; disabled after 5 days. */
export const DEFAULT_WEBHOOK_RETRY_SCHEDULE: WebhookRetrySchedule = {
  delaysSeconds: [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600],
  windowSeconds: 3 * 24 * 3600,
  disableAfterSeconds: 5 * 24 * 3600,
};

/** Seconds to wait after the `attempts`-th failed attempt (1 = the first). */
export function retryDelaySeconds(schedule: WebhookRetrySchedule, attempts: number): number {
  const { delaysSeconds } = schedule;
  const index = Math.min(Math.max(attempts, 1), delaysSeconds.length) - 1;
  return delaysSeconds[index] ?? 0;
}

/**
 * After a failed attempt (the `attempts`-th), when to try again, or null when the next try
 * would come after `deadline`: the delivery has FAILED.
 */
export function nextAttempt({
  schedule,
  attempts,
  now,
  deadline,
}: {
  schedule: WebhookRetrySchedule;
  attempts: number;
  now: Date;
  deadline: Date;
}): { inSeconds: number } | null {
  const inSeconds = retryDelaySeconds(schedule, attempts);
  return now.getTime() + inSeconds * 1000 > deadline.getTime() ? null : { inSeconds };
}

/** A delivery's last moment to be tried: its own (a retry by hand), else its window's end. */
export function deliveryDeadline({
  schedule,
  createdAt,
  retryUntil,
}: {
  schedule: WebhookRetrySchedule;
  createdAt: Date;
  retryUntil: Date | null;
}): Date {
  return retryUntil ?? new Date(createdAt.getTime() + schedule.windowSeconds * 1000);
}
