import { describe, expect, it } from 'vitest';

describe('embedded PostgreSQL module', () => {
  it('leaves signals and exit codes to the process', async () => {
    const events = ['SIGINT', 'SIGTERM', 'SIGHUP', 'beforeExit', 'exit', 'message'] as const;
    const before = events.map((e) => process.listenerCount(e));
    await import('../../runtime/embedded/postgres.js');
    expect(events.map((e) => process.listenerCount(e))).toEqual(before);
  });
});
