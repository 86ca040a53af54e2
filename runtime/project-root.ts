import { existsSync } from 'node:fs';
import path from 'node:path';

function folderOfPackageJson(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

/**
 * The project's folder (where package.json is): the same whether this code runs from its source
 * (`runtime/`, under tsx) or from the server bundle (`dist/server/`).
 */
export const PROJECT_ROOT = folderOfPackageJson(import.meta.dirname);
