import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
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
    // What a process loads only when it needs it (the migrator: the worker never migrates) stays
    // in a chunk of its own instead of among the entry's imports.
    splitting: true,
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  // Chunks first: an entry written before the chunks it imports could be started without them.
  const isChunk = (file: string): boolean => path.dirname(file) !== outDir;
  const write = async (file: { path: string; contents: Uint8Array }): Promise<void> => {
    await mkdir(path.dirname(file.path), { recursive: true });
    const partial = `${file.path}.${randomUUID()}.partial`;
    await writeFile(partial, file.contents);
    await rename(partial, file.path);
  };
  await Promise.all(result.outputFiles.filter((file) => isChunk(file.path)).map(write));
  await Promise.all(result.outputFiles.filter((file) => !isChunk(file.path)).map(write));
  await removeOldChunks({
    dir: path.join(outDir, 'chunks'),
    keep: new Set(result.outputFiles.map((file) => file.path)),
  });
  return outDir;
}

/**
 * Chunks of earlier builds (other sources) that no build of the last ten minutes wrote: a process
 * started from an older build has loaded its chunks by then, or never needs them.
 */
async function removeOldChunks({ dir, keep }: { dir: string; keep: Set<string> }): Promise<void> {
  const tenMinutesAgo = Date.now() - 10 * 60_000;
  for (const name of await readdir(dir).catch(() => [])) {
    const file = path.join(dir, name);
    if (keep.has(file)) continue;
    const { mtimeMs } = await stat(file).catch(() => ({ mtimeMs: Date.now() }));
    if (mtimeMs < tenMinutesAgo) await rm(file, { force: true });
  }
}
