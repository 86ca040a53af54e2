import { describe, expect, it } from 'vitest';
import { isAutoReply } from '../../domain/inbound/auto-reply.pure.js';
import { readDeliveryStatus, readFeedbackReport } from '../../domain/inbound/dsn.pure.js';
import { readPlainBounce } from '../../domain/inbound/plain-bounce.pure.js';
import { readReport } from '../../domain/inbound/read-report.pure.js';
import { fieldGroups } from '../../domain/inbound/report-fields.pure.js';
import { parseReturnedMessage } from '../../domain/inbound/return-path-report.service.js';
import {
  arfMessage,
  dsnMessage,
  exchangeBounceMessage,
  outOfOfficeMessage,
  plainBounceMessage,
} from '../helpers/report-messages.js';

const to = 'token@rp.sender.test';
const recipient = 'gone@remote.test';
const read = async (raw: string) => readReport(await parseReturnedMessage(Buffer.from(raw)));

describe('delivery-status fields (RFC 3464)', () => {
  it('groups fields, folds continuation lines and keeps the first of a repeated field', () => {
    expect(fieldGroups('A: 1\r\nB: two\r\n  lines\r\nA: 3\r\n\r\nC: x\r\n')).toEqual([
      new Map([
        ['a', '1'],
        ['b', 'two lines'],
      ]),
      new Map([['c', 'x']]),
    ]);
  });

  it('reads failed 5.x.x as hard, delayed or 4.x.x as soft, and skips delivered recipients', () => {
    const text = [
      'Reporting-MTA: dns; mx.test',
      '',
      'Final-Recipient: rfc822; A@Remote.test',
      'Action: failed',
      'Status: 5.1.1',
      'Diagnostic-Code: smtp; 550 5.1.1 no such user',
      '',
      'Final-Recipient: rfc822; b@remote.test',
      'Action: delayed',
      'Status: 4.4.1',
      '',
      'Final-Recipient: rfc822; c@remote.test',
      'Action: failed',
      'Status: 4.2.2',
      '',
      'Final-Recipient: rfc822; d@remote.test',
      'Action: delivered',
      'Status: 2.0.0',
    ].join('\r\n');
    expect(readDeliveryStatus(text)).toEqual([
      {
        recipient: 'a@remote.test',
        bounceType: 'hard',
        status: '5.1.1',
        diagnostic: 'smtp; 550 5.1.1 no such user',
      },
      { recipient: 'b@remote.test', bounceType: 'soft', status: '4.4.1' },
      { recipient: 'c@remote.test', bounceType: 'soft', status: '4.2.2' },
    ]);
    expect(readDeliveryStatus('Reporting-MTA: dns; mx.test\r\n')).toBeUndefined();
  });

  it('reads a feedback report (RFC 5965)', () => {
    expect(readFeedbackReport('Feedback-Type: Abuse\r\nOriginal-Rcpt-To: <X@Y.test>\r\n')).toEqual({
      feedbackType: 'abuse',
      recipient: 'x@y.test',
    });
    expect(readFeedbackReport('Feedback-Type: abuse\r\n')).toEqual({ feedbackType: 'abuse' });
    expect(readFeedbackReport('User-Agent: x\r\n')).toBeUndefined();
  });
});

describe('bounces written for people', () => {
  it('reads a MAILER-DAEMON text and an Exchange NDR; refuses text with no status', () => {
    expect(
      readPlainBounce({
        from: 'MAILER-DAEMON@mx.test',
        subject: 'Mail delivery failed',
        text: `The following address failed:\n  ${recipient}\n    550 5.1.1 User unknown`,
      }),
    ).toEqual([
      { recipient, bounceType: 'hard', status: '5.1.1', diagnostic: '550 5.1.1 User unknown' },
    ]);
    const exchange = readPlainBounce({
      from: 'postmaster@outlook.test',
      subject: 'Undeliverable: hello',
      text: `Delivery has failed to these recipients or groups:\n${recipient}\nRemote Server returned '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found'`,
    });
    expect(exchange).toEqual([
      {
        recipient,
        bounceType: 'hard',
        status: '5.1.1',
        diagnostic: "Remote Server returned '550 5.1.1 RESOLVER.ADR.RecipNotFound; not found'",
      },
    ]);
    expect(
      readPlainBounce({ from: 'MAILER-DAEMON@mx.test', subject: 'x', text: `${recipient} failed` }),
    ).toBeUndefined();
    expect(
      readPlainBounce({ from: 'a@b.test', subject: 'Hello', text: `550 5.1.1 ${recipient}` }),
    ).toBeUndefined();
  });
});

describe('automatic replies (RFC 3834)', () => {
  it('are known by their headers or an out-of-office subject', () => {
    const h = (key: string, value: string) => [{ key, value }];
    expect(isAutoReply({ headers: h('auto-submitted', 'auto-replied'), subject: 'x' })).toBe(true);
    expect(isAutoReply({ headers: h('auto-submitted', 'no'), subject: 'x' })).toBe(false);
    expect(isAutoReply({ headers: h('x-autoreply', 'yes'), subject: 'x' })).toBe(true);
    expect(isAutoReply({ headers: h('precedence', 'auto_reply'), subject: 'x' })).toBe(true);
    expect(isAutoReply({ headers: [], subject: 'Out of Office: Re: news' })).toBe(true);
    expect(isAutoReply({ headers: [], subject: 'Automatic reply: news' })).toBe(true);
    expect(isAutoReply({ headers: [], subject: 'Re: news' })).toBe(false);
  });
});

describe('reading a returned message', () => {
  it('reads each kind of report from its raw message', async () => {
    expect(await read(dsnMessage({ to, recipient }))).toEqual({
      format: 'dsn',
      failures: [
        {
          recipient,
          bounceType: 'hard',
          status: '5.1.1',
          diagnostic: expect.stringContaining('User unknown'),
        },
      ],
    });
    expect(
      await read(dsnMessage({ to, recipient, action: 'delayed', status: '4.4.7' })),
    ).toMatchObject({
      format: 'dsn',
      failures: [{ recipient, bounceType: 'soft', status: '4.4.7' }],
    });
    expect(await read(arfMessage({ to, recipient }))).toEqual({
      format: 'arf',
      feedbackType: 'abuse',
      recipient,
    });
    expect(await read(plainBounceMessage({ to, recipient }))).toMatchObject({
      format: 'plain_bounce',
      failures: expect.arrayContaining([
        { recipient, bounceType: 'hard', status: '5.1.1', diagnostic: expect.any(String) },
      ]),
    });
    expect(await read(exchangeBounceMessage({ to, recipient }))).toMatchObject({
      format: 'plain_bounce',
      failures: expect.arrayContaining([expect.objectContaining({ recipient, status: '5.1.1' })]),
    });
    expect(await read(outOfOfficeMessage({ to, recipient }))).toEqual({ format: 'auto_reply' });
    expect(await read(`From: a@b.test\r\nSubject: hello\r\n\r\nJust a note.\r\n`)).toMatchObject({
      format: 'unknown',
    });
  });
});
