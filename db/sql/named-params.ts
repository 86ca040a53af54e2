// Bind parameters by name: a statement's `$n` are numbered once, here, from a named record, so
// its text, its column lists and its values array cannot drift apart.

/** Each parameter's cast (`$n::cast`), or null for a bare `$n` whose type PostgreSQL infers. */
export type ParamCasts<K extends string> = Readonly<Record<K, string | null>>;

export interface NamedParams<K extends string> {
  /** Each name's placeholder, `$n` or `$n::cast`. */
  readonly $: Readonly<Record<K, string>>;
  /** The names in the order of their numbers. */
  readonly names: readonly K[];
  /** One call's values, in the order of their numbers (after the `first - 1` numbered by hand). */
  values(values: Readonly<Record<K, unknown>>): unknown[];
}

/**
 * Numbers the parameters `casts` names from `first` on (a statement's first parameters may be
 * numbered by hand, or by another fragment such as CONTACT_UPSERT_CTES), in the record's order.
 */
export function namedParams<K extends string>(
  casts: ParamCasts<K>,
  { first = 1 }: { first?: number } = {},
): NamedParams<K> {
  const names = Object.keys(casts) as K[];
  const $ = Object.fromEntries(
    names.map((name, i) => {
      const cast = casts[name];
      return [name, `$${first + i}${cast === null ? '' : `::${cast}`}`];
    }),
  ) as Record<K, string>;
  return { $, names, values: (values) => names.map((name) => values[name]) };
}

/** `a, b, c`: the names (columns) of `params`, or of those `only` keeps, for an INSERT. */
export const columnList = <K extends string>(
  params: NamedParams<K>,
  only: readonly K[] = params.names,
): string => only.join(', ');

/** `$1, $2, $3`: the placeholders of `columnList`, in its order, for VALUES. */
export const placeholderList = <K extends string>(
  params: NamedParams<K>,
  only: readonly K[] = params.names,
): string => only.map((name) => params.$[name]).join(', ');

/**
 * `a = $1, b = $2`: an UPDATE's SET list over `only` (every name by default), each column given
 * `value(column, placeholder)`; the placeholder itself by default.
 */
export const assignmentList = <K extends string>(
  params: NamedParams<K>,
  {
    only = params.names,
    value = (_column, placeholder) => placeholder,
  }: { only?: readonly K[]; value?: (column: K, placeholder: string) => string } = {},
): string => only.map((name) => `${name} = ${value(name, params.$[name])}`).join(', ');
