import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

export type ContentEncoding = 'br' | 'gzip';

const COMPRESSIBLE = new Set(['.html', '.js', '.css', '.svg', '.json', '.map']);
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const compressors: Record<ContentEncoding, (data: Buffer) => Promise<Buffer>> = {
  br: (data) => brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
  gzip: (data) => gzip(data, { level: 9 }),
};

/**
 * The dashboard's text files compressed once per encoding and kept in memory (the build is a few
 * megabytes and its assets never change under a name); a rebuilt file (new mtime) is compressed
 * again.
 */
export function compressedFiles() {
  const cache = new Map<string, Promise<Buffer>>();
  return {
    compressible: (file: string) => COMPRESSIBLE.has(path.extname(file)),
    async get(file: string, encoding: ContentEncoding): Promise<Buffer> {
      const { mtimeMs, size } = await stat(file);
      const key = `${encoding}:${file}:${mtimeMs}:${size}`;
      let entry = cache.get(key);
      if (!entry) {
        entry = readFile(file).then((data) => compressors[encoding](data));
        entry.catch(() => cache.delete(key));
        cache.set(key, entry);
      }
      return entry;
    },
  };
}
