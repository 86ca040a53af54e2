import { describe, expect, it } from 'vitest';
import { csvRecords, type CsvRecord } from '../../domain/jobs/csv-records.js';
import { addRecord, finishBatch, newBatch } from '../../domain/jobs/import-batches.pure.js';

/** The file as the import reads it from the database: in parts of `partBytes`. */
async function* inParts(content: Buffer, partBytes: number): AsyncGenerator<Buffer> {
  for (let at = 0; at < content.length; at += partBytes) yield content.subarray(at, at + partBytes);
}

async function readAll(content: Buffer, partBytes = 1 << 20): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const chunk of csvRecords(inParts(content, partBytes))) out.push(...chunk);
  return out;
}

const shape = (records: CsvRecord[]): (string | string[])[] =>
  records.map((r) => ('record' in r ? r.record : 'error'));

describe('the import reading a CSV file', () => {
  it('puts what the parser cannot read in its place, up to the end of the file', async () => {
    // The parser reports these apart from the records it has already read; before, they were
    // read ahead of them (the header itself then seemed unreadable).
    const csv = 'email,plan\nok1@x.test,pro\nbad@x.test,"open"x\nok2@x.test,free\n';
    expect(shape(await readAll(Buffer.from(csv)))).toEqual([
      ['email', 'plan'],
      ['ok1@x.test', 'pro'],
      'error',
      'error',
    ]);
    // A quote still open at the end is reported once the parser has ended.
    const records = await readAll(Buffer.from('email\na@x.test\nb@x.test\n"x"y\n'));
    expect(shape(records)).toEqual([['email'], ['a@x.test'], ['b@x.test'], 'error', 'error']);
    expect((records[4] as { error: Error }).error.message).toMatch(/Quote Not Closed/);
  });

  it('reads the same records whatever parts the file comes in (quoted newlines, multi-byte text)', async () => {
    const lines = ['email,notes'];
    for (let i = 0; i < 20_000; i += 1)
      lines.push(`u${i}@x.test,"mülti\nliné, ""quoted"" 日本 ${i}"`);
    const content = Buffer.from(`${lines.join('\n')}\n`);
    const whole = await readAll(content);
    expect(whole).toHaveLength(20_001);
    expect(await readAll(content, 100_003)).toEqual(whole);
    expect(whole[20_000]).toEqual({
      record: ['u19999@x.test', 'mülti\nliné, "quoted" 日本 19999'],
    });
  });

  it('fails the reading, not the process, when a part of the file cannot be read', async () => {
    async function* brokenAfterOnePart(): AsyncGenerator<Buffer> {
      yield Buffer.from('email\na@x.test\n');
      throw new Error('The file of job j went while it was read');
    }
    const uncaught: unknown[] = [];
    const listener = (error: unknown): void => void uncaught.push(error);
    process.on('uncaughtException', listener);
    try {
      const read = async (): Promise<void> => {
        for await (const chunk of csvRecords(brokenAfterOnePart())) void chunk;
      };
      await expect(read()).rejects.toThrow('went while it was read');
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', listener);
    }
  });

  it('stages a batch as its rows merged by email and its failures, with spreadsheet rows', () => {
    const batch = newBatch(10);
    const columns = ['email', 'plan', 'subscribed'];
    const records: CsvRecord[] = [
      { record: ['A@x.test', 'pro', ''] },
      { error: new Error('Invalid Closing Quote') },
      { record: ['not-an-email', 'pro', ''] },
      { record: ['a@x.test', '', 'false'] },
    ];
    for (const item of records) addRecord(batch, { columns, item });
    let next = 0;
    const staged = finishBatch(batch, { newId: () => `id-${(next += 1)}` });
    expect(batch.records).toBe(4);
    expect(staged).toEqual([
      expect.objectContaining({ sheetRow: 13, error: 'Invalid Closing Quote', occurrences: 1 }),
      expect.objectContaining({ sheetRow: 14, error: 'Invalid email "not-an-email"' }),
      {
        batchStart: 10,
        sheetRow: 12,
        id: 'id-1',
        email: 'a@x.test',
        subscribed: false,
        data: { plan: 'pro' },
        occurrences: 2,
        error: null,
      },
    ]);
    // The records given are left as they were.
    expect(records[0]).toEqual({ record: ['A@x.test', 'pro', ''] });
  });
});
