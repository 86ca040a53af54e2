import { describe, expect, it } from 'vitest';
import {
  enhancedStatus,
  permanentRefusalKind,
  replyCode,
} from '../../domain/sending/smtp-refusal.pure.js';

describe("a relay's permanent refusal", () => {
  it('is a hard bounce for 5.1.x and 5.2.1, a plain failure otherwise', () => {
    const cases: [string, string][] = [
      [
        'Message failed: 550 5.1.1 <a@b.test>: Recipient address rejected: User unknown',
        'hard_bounce',
      ],
      ['550 5.1.10 RESOLVER.ADR.RecipientNotFound; not found', 'hard_bounce'],
      ['550 5.1.2 Bad destination system address', 'hard_bounce'],
      ['550 5.2.1 The email account that you tried to reach is disabled', 'hard_bounce'],
      ['552 5.2.2 Mailbox full', 'failed'],
      ['554 5.7.1 Message rejected under policy', 'failed'],
      ['550 5.7.606 Access denied, banned sending IP', 'failed'],
      ['552 Requested mail action aborted: exceeded storage allocation', 'failed'],
      ['550 Requested action not taken: mailbox unavailable', 'failed'],
      ['450 4.1.1 try later', 'failed'],
    ];
    for (const [answer, kind] of cases) expect(permanentRefusalKind(answer), answer).toBe(kind);
  });

  it('reads the first enhanced status code of an answer', () => {
    expect(enhancedStatus('550 5.1.1 <x>: user unknown (see 5.7.1)')).toBe('5.1.1');
    expect(enhancedStatus('550 no code here, version 1.2.3.4')).toBeUndefined();
  });

  it('reads the reply code an answer starts with, or that follows the client preamble', () => {
    expect(replyCode('452 4.2.2 Mailbox full, try again later')).toBe(452);
    expect(
      replyCode("Can't send mail - all recipients were rejected: 452 4.2.2 Mailbox full"),
    ).toBe(452);
    expect(replyCode('Message failed: 550 5.1.1 <a@b.test>: User unknown')).toBe(550);
    expect(replyCode('421-4.7.0 Try again later')).toBe(421);
    // A timeout or a dropped connection carries none; numbers elsewhere are not codes.
    expect(replyCode('activity ScheduleToClose timeout')).toBeUndefined();
    expect(replyCode('Connection closed after 450 ms')).toBeUndefined();
    expect(replyCode('Greeting never received')).toBeUndefined();
  });
});
