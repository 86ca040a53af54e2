import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { SERVER_BUNDLE_DIR, SERVER_ENTRIES } from './entry-points.js';
import { PROJECT_ROOT } from './project-root.js';

/**
 * Bundles each entry point with our own modules into one file of `dist/server/` (packages stay
 * in node_modules). A process then starts without tsx: no loader thread and no TypeScript
 * transform at start-up (about half the start-up CPU and ~65 MB less resident memory for the
 * worker, measured in bench/README.md). Each file is written whole and renamed into place, so
 * processes that build at the same time never read a half-written one.
 */
export async function buildServerBundle({
  outDir = SERVER_BUNDLE_DIR,
}: { outDir?: string } = {}): Promise<string> {
  const result = await build({
    absWorkingDir: PROJECT_ROOT,
    entryPoints: Object.fromEntries(
      SERVER_ENTRIES.map((entry) => [entry, path.join('runtime', `${entry}.ts`)]),
    ),
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: 'linked',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  await mkdir(outDir, { recursive: true });
  await Promise.all(
    result.outputFiles.map(async (file) => {
      const partial = `${file.path}.${randomUUID()}.partial`;
      await writeFile(partial, file.contents);
      await rename(partial, file.path);
    }),
  );
  return outDir;
}
