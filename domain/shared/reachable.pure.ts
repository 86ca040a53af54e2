/** Whether `goal` is `start` or lies any number of `next` steps after it (cycles are fine). */
export function reaches({
  start,
  goal,
  next,
}: {
  start: string;
  goal: string;
  next: (node: string) => readonly string[];
}): boolean {
  const seen = new Set<string>();
  const pending = [start];
  while (pending.length > 0) {
    const at = pending.pop() as string;
    if (at === goal) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    pending.push(...next(at));
  }
  return false;
}
