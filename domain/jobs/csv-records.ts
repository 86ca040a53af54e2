import { Readable } from 'node:stream';
import { parse } from 'csv-parse';

/** One record of a CSV file, or the parser's error for a record it could not read. */
export type CsvRecord = { record: string[] } | { error: Error };

/**
 * The file goes through the parser in slices of this size: records flow on while it parses, and
 * each slice is a short run of work (~1 ms), so a caller's I/O is not held up behind it.
 */
const SLICE_BYTES = 32 * 1024;

async function* slices(content: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  for await (const part of content)
    for (let at = 0; at < part.length; at += SLICE_BYTES) yield part.subarray(at, at + SLICE_BYTES);
}

/**
 * The records of `content` (a file as it is read) in file order, as the parser produces them (an
 * array per slice of the file, not a promise per record: the import reads 100,000s of them). A record the parser
 * cannot read is given as its error in its place: the parser reports those out of band, ahead
 * of records it has already parsed, so each is placed by the number of records read before it.
 * Empty lines are skipped; a UTF-8 or UTF-16 BOM is honoured.
 */
export async function* csvRecords(content: AsyncIterable<Buffer>): AsyncGenerator<CsvRecord[]> {
  const parser = parse({
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    bom: true,
  });
  const skipped: { error: Error; before: number }[] = [];
  parser.on('skip', (error: Error) => skipped.push({ error, before: parser.info.records }));
  let ended = false;
  let failure: Error | undefined;
  let wake = (): void => undefined;
  parser.on('readable', () => wake());
  parser.on('end', () => {
    ended = true;
    wake();
  });
  parser.on('error', (error: Error) => {
    failure = error;
    wake();
  });
  // The file is read from the database as the parser goes: a read that fails (the job's file
  // deleted with its project, the database gone) fails the parser, and so this import, never the
  // process (pipe() leaves a source's errors unheard).
  const source = Readable.from(slices(content), { objectMode: false });
  source.on('error', (error: Error) => parser.destroy(error));
  source.pipe(parser);

  let read = 0;
  let given = 0;
  const placeSkipped = (out: CsvRecord[], upTo: number): void => {
    for (let s = skipped[given]; s !== undefined && s.before < upTo; s = skipped[given]) {
      out.push({ error: s.error });
      given += 1;
    }
  };
  for (;;) {
    const out: CsvRecord[] = [];
    for (let record = parser.read() as string[] | null; record !== null; record = parser.read()) {
      read += 1;
      placeSkipped(out, read);
      out.push({ record });
    }
    if (failure) throw failure;
    // Decided before yielding: the parser may end while the caller holds this generator, and
    // what it reported last is placed on the next turn.
    const done = ended;
    if (done) placeSkipped(out, Infinity);
    if (out.length > 0) yield out;
    if (done) return;
    // Events that came while the caller held this generator are read at the top of the loop.
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (ended || failure || parser.readableLength > 0) resolve();
    });
    wake = () => undefined;
  }
}
