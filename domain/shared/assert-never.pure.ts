/**
 * Ends a `switch` over a vocabulary (after its cases, never as a `default:`): a vocabulary member
 * left without a case makes `value` something other than `never`, so the switch no longer
 * compiles. Reached at run time only by a value from outside the type system (bad data).
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unexpected ${what}: ${JSON.stringify(value)}`);
}
