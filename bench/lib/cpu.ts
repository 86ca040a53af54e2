import { readdir, readFile } from 'node:fs/promises';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

async function ticksOf(
  pid: number,
): Promise<{ comm: string; ticks: number; childTicks: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of the whole line: 12-15 after "pid (comm) ".
    return {
      comm,
      ticks: Number(fields[11]) + Number(fields[12]),
      childTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by the named processes, and by every PostgreSQL and Temporal process
 * on the machine: live ones by command name, plus what the postmaster's exited backends used
 * (its children's time), so backends that come and go are all counted. Linux only.
 */
export async function cpuSnapshot(named: Record<string, number>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [label, pid] of Object.entries(named))
    out[label] = ((await ticksOf(pid))?.ticks ?? 0) / TICKS_PER_SECOND;
  let postgres = 0;
  let temporal = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const found = await ticksOf(Number(entry));
    if (found?.comm === 'postgres') postgres += found.ticks + found.childTicks;
    if (found?.comm === 'temporal') temporal += found.ticks;
  }
  out.postgres = postgres / TICKS_PER_SECOND;
  out.temporal = temporal / TICKS_PER_SECOND;
  out.bench = (process.cpuUsage().user + process.cpuUsage().system) / 1e6;
  return out;
}

export function cpuDelta(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).map(([k, v]) => [k, Math.round((v - (before[k] ?? 0)) * 100) / 100]),
  );
}
