import path from 'node:path';
import { PROJECT_ROOT } from './project-root.js';

/** The entry points users run (`npm start`, `npm run api`, `npm run worker`). */
export const SERVER_ENTRIES = ['start', 'api', 'worker'] as const;
export type ServerEntry = (typeof SERVER_ENTRIES)[number];

/**
 * What each entry point runs with besides its code (the npm scripts in package.json say the same;
 * test/unit/entry-points.test.ts holds them equal). The worker keeps V8's young generation small
 * (4 MB semi-spaces: the default grows it past 130 MB under a campaign's garbage) and glibc to two
 * malloc arenas (the Temporal core's threads each grew one): a 100,000-recipient campaign peaks
 * at ~390 MB resident instead of ~485 MB, at the same rate (bench/README.md). A setting in the
 * environment wins over these.
 */
export const ENTRY_RUNTIME = {
  start: { nodeFlags: [], env: {} },
  api: { nodeFlags: [], env: {} },
  worker: { nodeFlags: ['--max-semi-space-size=4'], env: { MALLOC_ARENA_MAX: '2' } },
} as const satisfies Record<
  ServerEntry,
  { nodeFlags: readonly string[]; env: Readonly<Record<string, string>> }
>;

/** How long an entry point's shutdown may take before it exits anyway (runtime/shutdown.ts). */
export const FORCED_EXIT_MS = 30_000;

/** Where `npm run build:server` writes them, one file each (runtime/server-bundle.ts). */
export const SERVER_BUNDLE_DIR = path.join(PROJECT_ROOT, 'dist', 'server');

/** This process runs from the bundle: its code is a `.js` file, not a `.ts` source under tsx. */
export const RUNS_FROM_BUNDLE = import.meta.filename.endsWith('.js');

/** An entry point's bundled file, with the node flags and environment it runs with. */
export function bundledEntryCommand(entry: ServerEntry): {
  file: string;
  execArgv: string[];
  env: Record<string, string>;
} {
  const { nodeFlags, env } = ENTRY_RUNTIME[entry];
  return { file: path.join(SERVER_BUNDLE_DIR, `${entry}.js`), execArgv: [...nodeFlags], env };
}

/**
 * How to run an entry point as a child process: the bundle's file when this process runs from the
 * bundle, else its source under tsx.
 */
export function entryPointCommand(entry: ServerEntry): ReturnType<typeof bundledEntryCommand> {
  const bundled = bundledEntryCommand(entry);
  return RUNS_FROM_BUNDLE
    ? bundled
    : {
        ...bundled,
        file: path.join(PROJECT_ROOT, 'runtime', `${entry}.ts`),
        execArgv: [...bundled.execArgv, '--import', 'tsx'],
      };
}
