import { describe, expect, it } from 'vitest';
import {
  matchReportedEmails,
  reportedAddress,
  reportedAddresses,
} from '../../domain/sending/feedback-match.pure.js';

// Emails with one Message-ID: two in project A (a message to two recipients), one in B, and one
// address both projects sent it to.
const a1 = { id: '1', to_address: 'a1@example.test' };
const a2 = { id: '2', to_address: 'A2@Example.test' };
const b1 = { id: '3', to_address: 'b1@example.test' };
const bothA = { id: '4', to_address: 'both@example.test' };
const bothB = { id: '5', to_address: 'both@example.test' };

describe('which emails a report by Message-ID is about', () => {
  it('reads recipients as lower-case addresses, a display name left off, junk dropped', () => {
    expect(reportedAddress('Ada <Ada@Example.TEST>')).toBe('ada@example.test');
    expect(reportedAddress(' b@example.test ')).toBe('b@example.test');
    expect(reportedAddress('"Last, First" <c@example.test>')).toBe('c@example.test');
    expect(reportedAddress('not an address')).toBeUndefined();
    expect(reportedAddress('<>')).toBeUndefined();
    expect(reportedAddresses(['A@x.test', 'a@x.test', 'A <a@X.test>', 'nobody'])).toEqual([
      'a@x.test',
    ]);
  });

  it('applies to each named recipient’s one email, once', () => {
    const candidates = [a1, a2, b1, bothA, bothB];
    expect(matchReportedEmails({ candidates, recipients: ['b1@example.test'] })).toEqual({
      emails: [b1],
      undetermined: false,
    });
    expect(
      matchReportedEmails({
        candidates,
        recipients: ['a2@example.test', 'a1@example.test', 'a1@example.test'],
      }),
    ).toEqual({ emails: [a2, a1], undetermined: false });
    expect(matchReportedEmails({ candidates, recipients: ['c@example.test'] })).toEqual({
      emails: [],
      undetermined: false,
    });
  });

  it('is undetermined for a recipient with several emails, applying to the others', () => {
    const candidates = [a1, bothA, bothB];
    expect(
      matchReportedEmails({ candidates, recipients: ['both@example.test', 'a1@example.test'] }),
    ).toEqual({ emails: [a1], undetermined: true });
  });

  it('without recipients, applies to the only email, and to none of several', () => {
    expect(matchReportedEmails({ candidates: [b1], recipients: [] })).toEqual({
      emails: [b1],
      undetermined: false,
    });
    expect(matchReportedEmails({ candidates: [a1, a2], recipients: [] })).toEqual({
      emails: [],
      undetermined: true,
    });
    expect(matchReportedEmails({ candidates: [], recipients: [] })).toEqual({
      emails: [],
      undetermined: false,
    });
  });
});
