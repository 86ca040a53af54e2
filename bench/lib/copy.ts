import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

/** Streams `rows` (CSV lines) into `statement` (a COPY ... FROM STDIN), in 64 KiB chunks. */
export async function copyRows(
  client: pg.Client,
  statement: string,
  rows: () => Iterable<string>,
): Promise<void> {
  await pipeline(
    Readable.from(
      (function* () {
        let chunk = '';
        for (const row of rows()) {
          chunk += row;
          if (chunk.length > 1 << 16) {
            yield chunk;
            chunk = '';
          }
        }
        if (chunk) yield chunk;
      })(),
    ),
    client.query(copyFrom(statement)),
  );
}
