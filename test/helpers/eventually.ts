/**
 * Polls `check` until it answers something truthy, and answers that. Past `timeoutMs` it throws,
 * naming `what` and the last thing `check` saw (`describe` turns that into words), so a timeout
 * says what was wrong rather than only that it was late. The one poll loop of the tests.
 */
export async function eventually<T>(
  check: () => Promise<T | false | null | undefined> | T | false | null | undefined,
  {
    what,
    timeoutMs = 30_000,
    intervalMs = 100,
    describe = () => '',
  }: {
    what: string;
    timeoutMs?: number;
    intervalMs?: number;
    /** Words for the state seen last, for the timeout's message. */
    describe?: () => string;
  },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) {
      const seen = describe();
      throw new Error(
        `Timed out after ${timeoutMs} ms waiting for ${what}${seen ? `: ${seen}` : ''}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
