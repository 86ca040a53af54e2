import { describe, expect, it } from 'vitest';
import { applicationSources } from '../helpers/vocabularies.js';
import { ROOT } from '../helpers/processes.js';

// Every source of mail queues through db/sql/email-outbox.sql.ts: one INSERT into the outbox,
// one rule for who may receive mail. A second copy of either would drift from the first.
describe('the email outbox', () => {
  it('is written by one INSERT and read against the suppression list by one fragment', async () => {
    const sources = await applicationSources(ROOT);
    const writers = sources.filter((s) => /INSERT\s+INTO\s+emails\b/i.test(s.text));
    expect(writers.map((s) => s.file)).toEqual(['db/sql/email-outbox.sql.ts']);
    // Who may receive mail is a join against the list (listing and lifting entries is not).
    const suppressionReaders = sources.filter((s) => /JOIN\s+suppressions\b/i.test(s.text));
    expect(suppressionReaders.map((s) => s.file)).toEqual(['db/sql/email-outbox.sql.ts']);
    const variableBuilders = sources.filter((s) => /'svc_id',[^,]+,\s*'svc_email'/.test(s.text));
    expect(variableBuilders.map((s) => s.file)).toEqual(['db/sql/email-outbox.sql.ts']);
  });
});
