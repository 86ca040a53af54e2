import { readdir, readFile } from 'node:fs/promises';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

async function ticksOf(
  pid: number,
): Promise<{ comm: string; ppid: number; ticks: number; childTicks: number } | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17 of the whole line: 12-15 after "pid (comm) ".
    return {
      comm,
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]),
      childTicks: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return undefined;
  }
}

/**
 * CPU seconds used so far by the named processes, and by PostgreSQL and Temporal: with
 * `postgresPid` (the stack's postmaster) its own time, its live backends' and what its exited
 * backends used (its children's time), so backends that come and go are all counted and other
 * clusters on a shared machine are not; without it every process named postgres. With
 * `temporalPid` that process alone, otherwise every process named temporal. Linux only.
 */
export async function cpuSnapshot(
  named: Record<string, number>,
  { postgresPid, temporalPid }: { postgresPid?: number; temporalPid?: number } = {},
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [label, pid] of Object.entries(named))
    out[label] = ((await ticksOf(pid))?.ticks ?? 0) / TICKS_PER_SECOND;
  let postgres = 0;
  let temporal = 0;
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const found = await ticksOf(pid);
    if (!found) continue;
    if (postgresPid === undefined ? found.comm === 'postgres' : pid === postgresPid)
      postgres += found.ticks + found.childTicks;
    else if (postgresPid !== undefined && found.ppid === postgresPid) postgres += found.ticks;
    if (temporalPid === undefined ? found.comm === 'temporal' : pid === temporalPid)
      temporal += found.ticks + found.childTicks;
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
