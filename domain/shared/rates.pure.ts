/** `part` as a fraction of `whole`, 0..1 rounded to 4 places; 0 when `whole` is 0 (decisions.md). */
export const rate = (part: number, whole: number): number =>
  whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000;
