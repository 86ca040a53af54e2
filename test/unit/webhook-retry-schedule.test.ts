import { describe, expect, it } from 'vitest';
import {
  DEFAULT_WEBHOOK_RETRY_SCHEDULE as schedule,
  deliveryDeadline,
  nextAttempt,
  retryDelaySeconds,
} from '../../domain/webhooks/retry-schedule.pure.js';

describe('the webhook retry schedule', () => {
  it('waits 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, then every 10 h', () => {
    const waits = Array.from({ length: 9 }, (_, i) => retryDelaySeconds(schedule, i + 1));
    expect(waits).toEqual([5, 300, 1800, 7200, 18_000, 36_000, 36_000, 36_000, 36_000]);
  });

  it('tries a delivery for 3 days after it was queued, then gives it up', () => {
    const createdAt = new Date('2026-12-05T00:00:00Z');
    const deadline = deliveryDeadline({ schedule, createdAt, retryUntil: null });
    expect(deadline.toISOString()).toBe('2026-12-08T00:00:00.000Z');
    // Each attempt fails at once: count them until the schedule gives up.
    let now = createdAt;
    let attempts = 1;
    for (;;) {
      const next = nextAttempt({ schedule, attempts, now, deadline });
      if (!next) break;
      now = new Date(now.getTime() + next.inSeconds * 1000);
      attempts += 1;
    }
    // 0 s, 5 s, 5 min 5 s, 35 min, 2 h 35, 7 h 35, 17 h 35, then every 10 h up to 67 h 35.
    expect(attempts).toBe(12);
    expect((now.getTime() - createdAt.getTime()) / 3600_000).toBeCloseTo(67.59, 1);
  });

  it('gives a retry by hand one attempt: its deadline is when it was asked for', () => {
    const retryUntil = new Date('2026-12-10T12:00:00Z');
    const deadline = deliveryDeadline({ schedule, createdAt: new Date(0), retryUntil });
    expect(deadline).toEqual(retryUntil);
    expect(nextAttempt({ schedule, attempts: 1, now: retryUntil, deadline })).toBeNull();
  });
});
