import { describe, expect, it } from 'vitest';
import { ATTACHMENT_BYTES_MAX, MESSAGE_BYTES_MAX } from '../../domain/sending/send-limits.pure.js';
import {
  planSend,
  type SendInput,
  type SendPlan,
  type SendTemplate,
  type SyntaxCheck,
} from '../../domain/sending/send-request.pure.js';

const verifiedDomains = [
  { id: 'd-example', domain: 'example.com' },
  { id: 'd-news', domain: 'news.example.com' },
];
const noProblems: SyntaxCheck = () => [];
const template: SendTemplate = {
  id: 't-1',
  type: 'MARKETING',
  subject: 'Hello {{ firstName }}',
  body: '<p>Template body</p>',
  fromAddress: 'team@example.com',
  fromName: 'The Team',
  replyTo: 'reply@example.com',
};

function plan(
  input: Partial<SendInput>,
  options: { template?: SendTemplate | null; syntaxProblems?: SyntaxCheck } = {},
): ReturnType<typeof planSend> {
  return planSend({
    input: { to: 'Ada@Example.org', ...input },
    template: options.template ?? null,
    verifiedDomains,
    syntaxProblems: options.syntaxProblems ?? noProblems,
  });
}

function accepted(result: ReturnType<typeof planSend>): SendPlan {
  if ('errors' in result) throw new Error(`Refused: ${JSON.stringify(result.errors)}`);
  return result.plan;
}

function refused(result: ReturnType<typeof planSend>): { field: string; code: string }[] {
  if (!('errors' in result)) throw new Error('Accepted');
  return result.errors.map(({ field, code }) => ({ field, code }));
}

// A base64 string that decodes to exactly `bytes` bytes.
const base64Of = (bytes: number): string => Buffer.alloc(bytes, 7).toString('base64');

describe('planSend: what a POST /v1/send may carry', () => {
  const direct = { subject: 'Hi', body: '<p>Hi</p>', from: 'a@example.com' };

  it('needs a template or both subject and body, and names what is missing', () => {
    expect(refused(plan({ from: 'a@example.com' }))).toEqual([
      { field: 'subject', code: 'required' },
      { field: 'body', code: 'required' },
    ]);
    expect(refused(plan({ subject: 'Hi', from: 'a@example.com' }))).toEqual([
      { field: 'body', code: 'required' },
    ]);
    expect(accepted(plan(direct)).subject).toBe('Hi');
  });

  it('takes the template content and sender, and lets request fields override them', () => {
    const fromTemplate = accepted(plan({}, { template }));
    expect(fromTemplate).toMatchObject({
      templateId: 't-1',
      type: 'MARKETING',
      subject: template.subject,
      body: template.body,
      fromAddress: 'team@example.com',
      fromName: 'The Team',
      replyTo: 'reply@example.com',
      domainId: 'd-example',
    });
    const overridden = accepted(
      plan(
        {
          subject: 'Own',
          from: { name: 'Desk', email: 'desk@news.example.com' },
          replyTo: 'r@x.io',
        },
        { template },
      ),
    );
    expect(overridden).toMatchObject({
      subject: 'Own',
      body: template.body,
      fromAddress: 'desk@news.example.com',
      fromName: 'Desk',
      replyTo: 'r@x.io',
      // The most specific verified domain signs.
      domainId: 'd-news',
    });
    // A request sender without a name does not borrow the template's name.
    expect(accepted(plan({ from: 'x@example.com' }, { template })).fromName).toBeNull();
    // The deprecated `name` names a sender given without one.
    expect(accepted(plan({ ...direct, senderName: 'Old style' })).fromName).toBe('Old style');
    expect(accepted(plan(direct)).type).toBe('TRANSACTIONAL');
  });

  it('checks the syntax of the subject and body the request brings, not the template', () => {
    const seen: string[] = [];
    const check: SyntaxCheck = (source, field) => {
      seen.push(field);
      return source.includes('{%') ? [{ field, message: 'bad', code: 'template_syntax' }] : [];
    };
    expect(refused(plan({ ...direct, body: '{% nope' }, { syntaxProblems: check }))).toEqual([
      { field: 'body', code: 'template_syntax' },
    ]);
    seen.length = 0;
    accepted(plan({}, { template, syntaxProblems: check }));
    expect(seen).toEqual([]);
  });

  it('refuses a sender on no verified domain, and a missing one', () => {
    expect(refused(plan({ ...direct, from: 'a@example.net' }))).toEqual([
      { field: 'from', code: 'unverified_domain' },
    ]);
    expect(refused(plan({ ...direct, from: 'a@notexample.com' }))).toEqual([
      { field: 'from', code: 'unverified_domain' },
    ]);
    expect(refused(plan({ subject: 'Hi', body: 'b' }))).toEqual([
      { field: 'from', code: 'required' },
    ]);
  });

  it('refuses headers the service sets itself, in any case', () => {
    expect(
      refused(plan({ ...direct, headers: { 'X-Campaign': '1', 'list-UNSUBSCRIBE': '<x>' } })),
    ).toEqual([{ field: 'headers.list-UNSUBSCRIBE', code: 'reserved_header' }]);
  });

  it('takes attachments up to their total limit, and not a byte more', () => {
    const at = (bytes: number) => [
      {
        filename: 'a.bin',
        content: base64Of(bytes),
        contentType: 'application/octet-stream',
        disposition: 'attachment' as const,
      },
    ];
    expect(
      accepted(plan({ ...direct, attachments: at(ATTACHMENT_BYTES_MAX) })).attachments,
    ).toHaveLength(1);
    expect(refused(plan({ ...direct, attachments: at(ATTACHMENT_BYTES_MAX + 1) }))).toEqual([
      { field: 'attachments', code: 'too_big' },
    ]);
  });

  it('refuses a message larger than the total limit as it would be sent', () => {
    // The HTML body counts twice (it is also the text part): half the limit fits, one more byte does not.
    const fixed = Buffer.byteLength('Hi');
    const fits = 'x'.repeat((MESSAGE_BYTES_MAX - fixed) / 2);
    expect(accepted(plan({ ...direct, body: fits })).body).toHaveLength(fits.length);
    expect(refused(plan({ ...direct, body: `${fits}x` }))).toEqual([
      { field: '(root)', code: 'too_big' },
    ]);
  });

  it('plans each recipient in order with a normalised address, and applies the data rules', () => {
    const planned = accepted(
      plan({
        ...direct,
        to: ['  Ada@Example.org ', { name: 'Grace', email: 'GRACE@example.org' }],
        subscribed: true,
        data: {
          firstName: 'Ada',
          plan: null,
          empty: '',
          email: 'ignored@example.org',
          coupon: { value: 'ONCE', persistent: false },
        },
      }),
    );
    expect(planned.recipients).toEqual([
      { email: 'ada@example.org', name: null },
      { email: 'grace@example.org', name: 'Grace' },
    ]);
    expect(planned.contactData).toEqual({ set: { firstName: 'Ada' }, unset: ['plan'] });
    expect(planned.variables).toEqual({ firstName: 'Ada', coupon: 'ONCE' });
    expect(planned.subscribed).toBe(true);
    expect(accepted(plan(direct)).subscribed).toBeNull();
  });
});
