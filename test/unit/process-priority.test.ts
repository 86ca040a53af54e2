import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/processes.js';

/** Runs lowerProcessPriority in a fresh process (nice values stick to the thread that sets them). */
function niceAfter(steps: number[]): { nice: number; refused: boolean }[] {
  const script = `
    import { lowerProcessPriority } from ${JSON.stringify(path.join(ROOT, 'runtime', 'process-priority.ts'))};
    const out = ${JSON.stringify(steps)}.map((n) => {
      const r = lowerProcessPriority(n);
      return { nice: r.nice, refused: r.refused !== undefined };
    });
    console.log(JSON.stringify(out));`;
  const stdout = execFileSync(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', script],
    { cwd: ROOT, encoding: 'utf8' },
  );
  return JSON.parse(stdout.trim().split('\n').at(-1) as string);
}

describe('lowerProcessPriority', () => {
  it('lowers the priority to the nice value asked, never raises it back, and 0 leaves it', () => {
    const start = Number(execFileSync('nice', { encoding: 'utf8' }).trim());
    const at = (n: number) => Math.max(start, n);
    expect(niceAfter([0, 5, 7, 3, 0, 19])).toEqual([
      { nice: start, refused: false },
      { nice: at(5), refused: false },
      { nice: at(7), refused: false },
      // Going back up would need privileges: the process stays where it is, without an error.
      { nice: at(7), refused: false },
      { nice: at(7), refused: false },
      { nice: at(19), refused: false },
    ]);
  });
});
