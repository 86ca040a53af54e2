/** A problem with a filter, at a path relative to the filter (`conditions.2.operator`). */
export interface FilterProblem {
  path: (string | number)[];
  message: string;
  code: string;
}

export type ProblemPath = FilterProblem['path'];

/** The problems found while reading a filter; `add` answers undefined, for `return add(...)`. */
export class Problems {
  readonly list: FilterProblem[] = [];
  add(path: ProblemPath, code: string, message: string): undefined {
    this.list.push({ path, code, message });
    return undefined;
  }
}
