import path from 'node:path';
import { PROJECT_ROOT } from './project-root.js';

/** The entry points users run (`npm start`, `npm run api`, `npm run worker`). */
export const SERVER_ENTRIES = ['start', 'api', 'worker'] as const;
export type ServerEntry = (typeof SERVER_ENTRIES)[number];

/** Where `npm run build:server` writes them, one file each (runtime/server-bundle.ts). */
export const SERVER_BUNDLE_DIR = path.join(PROJECT_ROOT, 'dist', 'server');

/** This process runs from the bundle: its code is a `.js` file, not a `.ts` source under tsx. */
export const RUNS_FROM_BUNDLE = import.meta.filename.endsWith('.js');

/**
 * How to run an entry point as a child process: the bundle's file when this process runs from the
 * bundle, else its source under tsx.
 */
export function entryPointCommand(entry: ServerEntry): { file: string; execArgv: string[] } {
  return RUNS_FROM_BUNDLE
    ? { file: path.join(SERVER_BUNDLE_DIR, `${entry}.js`), execArgv: [] }
    : { file: path.join(PROJECT_ROOT, 'runtime', `${entry}.ts`), execArgv: ['--import', 'tsx'] };
}
