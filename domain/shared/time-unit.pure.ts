// The one vocabulary of time units: a DELAY step's unit, a filter window's and an analytics
// bucket's are each a subset of it, so a unit's length and its SQL are declared once here.

export const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks'] as const;
export type TimeUnit = (typeof TIME_UNITS)[number];

export const TIME_UNIT_SECONDS = {
  seconds: 1,
  minutes: 60,
  hours: 3600,
  days: 86_400,
  weeks: 604_800,
} as const satisfies Record<TimeUnit, number>;

/** A subset of the vocabulary, typed as the tuple it is: `timeUnits('minutes', 'hours')`. */
export const timeUnits = <const U extends readonly TimeUnit[]>(...units: U): U => units;

export const timeUnitMs = (unit: TimeUnit): number => TIME_UNIT_SECONDS[unit] * 1000;

/** The ms of each unit of `units`: a subset's own table, for lookups typed by that subset. */
export function unitMsOf<U extends TimeUnit>(units: readonly U[]): Record<U, number> {
  return Object.fromEntries(units.map((unit) => [unit, timeUnitMs(unit)])) as Record<U, number>;
}

/**
 * SQL for the seconds of the unit named by the text expression `unitSql`, generated from the
 * vocabulary (NULL for a name outside it): `amount * ${timeUnitSecondsSql("cfg ->> 'unit'")}`.
 */
export function timeUnitSecondsSql(unitSql: string): string {
  const cases = TIME_UNITS.map((unit) => `WHEN '${unit}' THEN ${TIME_UNIT_SECONDS[unit]}`);
  return `CASE ${unitSql} ${cases.join(' ')} END`;
}
