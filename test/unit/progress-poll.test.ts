import { describe, expect, it } from 'vitest';
import {
  nextPollWaitMs,
  POLL_COST_FACTOR,
  POLL_WAIT_MAX_MS,
} from '../../domain/campaigns/progress-poll.pure.js';

describe('the wait between two polls of a campaign watcher', () => {
  it('is the configured interval while a poll costs no more than its share of it', () => {
    const pollMs = 1000;
    const share = pollMs / POLL_COST_FACTOR;
    expect(nextPollWaitMs({ pollMs, lastPollMs: 3, leftMs: 60_000 })).toBe(pollMs);
    expect(nextPollWaitMs({ pollMs, lastPollMs: share, leftMs: 60_000 })).toBe(pollMs);
  });

  it('grows with what the last poll took beyond that share', () => {
    const pollMs = 1000;
    const share = pollMs / POLL_COST_FACTOR;
    expect(nextPollWaitMs({ pollMs, lastPollMs: share + 1, leftMs: 60_000 })).toBe(
      (share + 1) * POLL_COST_FACTOR,
    );
    expect(nextPollWaitMs({ pollMs, lastPollMs: 400, leftMs: 60_000 })).toBe(
      400 * POLL_COST_FACTOR,
    );
  });

  it('waits no longer than its most, unless the configured interval is longer', () => {
    const atMost = POLL_WAIT_MAX_MS / POLL_COST_FACTOR;
    expect(nextPollWaitMs({ pollMs: 1000, lastPollMs: atMost, leftMs: 600_000 })).toBe(
      POLL_WAIT_MAX_MS,
    );
    expect(nextPollWaitMs({ pollMs: 1000, lastPollMs: atMost + 1, leftMs: 600_000 })).toBe(
      POLL_WAIT_MAX_MS,
    );
    expect(
      nextPollWaitMs({ pollMs: POLL_WAIT_MAX_MS + 5, lastPollMs: atMost + 1, leftMs: 600_000 }),
    ).toBe(POLL_WAIT_MAX_MS + 5);
  });

  it('never waits past the end of the watch, nor less than nothing', () => {
    expect(nextPollWaitMs({ pollMs: 1000, lastPollMs: 400, leftMs: 2500 })).toBe(2500);
    expect(nextPollWaitMs({ pollMs: 1000, lastPollMs: 1, leftMs: 300 })).toBe(300);
    expect(nextPollWaitMs({ pollMs: 1000, lastPollMs: 1, leftMs: -5 })).toBe(0);
  });
});
