import { describe, expect, it } from 'vitest';
import { runEntryPoint } from '../helpers/processes.js';

// The services' logger writes asynchronously: what was logged must still all reach stdout when
// the process exits at once, by process.exit (a shutdown's end) or an uncaught error.
async function logThenDie(how: 'exit' | 'fatal') {
  // About 1 MB: many times a pipe's buffer, and within what the output helper keeps.
  const lines = 5_000;
  const child = runEntryPoint('test/fixtures/log-then-die.ts', {
    LINES: String(lines),
    HOW: how,
  });
  const code = await child.exited;
  const logged = child
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  const numbers = logged.filter((l) => l.msg === 'line').map((l) => l.n);
  expect(numbers).toEqual(Array.from({ length: lines }, (_, n) => n));
  expect(child.output()).not.toContain('sk_secret');
  expect(logged[0]?.headers).toEqual({ authorization: '[redacted]' });
  return { code, last: logged.at(-1) };
}

describe('the services logger', () => {
  it('writes every line before process.exit, credentials redacted', async () => {
    const { code, last } = await logThenDie('exit');
    expect(code).toBe(0);
    expect(last?.n).toBe(4_999);
  });

  it('writes every line, the fatal one last, when an uncaught error ends the process', async () => {
    const { code, last } = await logThenDie('fatal');
    expect(code).toBe(1);
    expect(last?.msg).toBe('uncaught exception; exiting');
    expect(JSON.stringify(last?.err)).toContain('the end');
  });
});
