import { generateKeyPairSync } from 'node:crypto';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import PostalMime from 'postal-mime';
import { describe, expect, it } from 'vitest';
import { buildLeanMessage, canBuildLean } from '../../domain/sending/mime-message.js';
import type { OutgoingMessage } from '../../domain/shared/ports.js';

// The delivery engine's own message builder: what it builds is read back by independent parts
// (postal-mime, mailauth), and what it cannot build as well as nodemailer goes to nodemailer.

const base: OutgoingMessage = {
  from: { name: 'Ünïcode Shop', address: 'news@shop.example' },
  to: { name: 'Zoë Ångström', address: 'zoe@example.com' },
  subject: 'Grüße — 🎉 news for you, with a subject long enough to need several encoded words',
  html: '<p>Hello</p>\n.a dot line\n<p>trailing space   </p>\n',
  text: 'Hello\n.a dot line\ntrailing space   \n',
  messageId: '<0190f0a0-0000-7000-8000-000000000000@shop.example>',
  headers: { 'List-Unsubscribe': '<https://mw.example/unsubscribe/abc>' },
};

const headerBlock = (raw: Buffer): string => raw.toString('utf8').split('\r\n\r\n')[0] as string;

describe('the lean message builder', () => {
  it('leaves to nodemailer what it would not write as well', () => {
    expect(canBuildLean(base)).toBe(true);
    // No Message-ID (system mail): nodemailer makes one.
    expect(canBuildLean({ ...base, messageId: undefined })).toBe(false);
    // A plain subject longer than a header line: nodemailer folds it.
    expect(canBuildLean({ ...base, subject: 'a'.repeat(890) })).toBe(true);
    expect(canBuildLean({ ...base, subject: 'a'.repeat(901) })).toBe(false);
    // Other headers only as printable ASCII on one line: a folded References (TAB) or a
    // non-ASCII List-Id keep nodemailer's encoding of only what must be encoded.
    expect(canBuildLean({ ...base, headers: { References: '<a@x>\t<b@x>' } })).toBe(false);
    expect(canBuildLean({ ...base, headers: { 'List-Id': 'Café <list.example>' } })).toBe(false);
    expect(canBuildLean({ ...base, from: 'Café <news@shop.example>' })).toBe(false);
    expect(
      canBuildLean({
        ...base,
        attachments: [
          {
            filename: 'a.txt',
            content: Buffer.from('a'),
            contentType: 'text/plain',
            contentDisposition: 'attachment',
          },
        ],
      }),
    ).toBe(false);
  });

  it('writes lines within their limits and a message that parses back as it was given', async () => {
    const raw = await buildLeanMessage(base);
    for (const line of headerBlock(raw).split('\r\n')) {
      // RFC 2047: a line holding an encoded word at most 76 characters; any line at most 998.
      expect(line.length).toBeLessThanOrEqual(line.includes('=?UTF-8?') ? 76 : 998);
    }
    const parsed = await PostalMime.parse(raw);
    expect(parsed.subject).toBe(base.subject);
    expect(parsed.from).toMatchObject({ name: 'Ünïcode Shop', address: 'news@shop.example' });
    expect(parsed.to?.[0]).toMatchObject({ name: 'Zoë Ångström', address: 'zoe@example.com' });
    expect(parsed.messageId).toBe(base.messageId);
    // postal-mime keeps the line break before a part's closing boundary (it does so for
    // nodemailer's messages too), so each part reads back with one more at its end.
    expect(parsed.html).toBe(`${base.html}\n`);
    expect(parsed.text).toBe(`${base.text}\n`);
    expect(parsed.headers.find((h) => h.key === 'list-unsubscribe')?.value).toBe(
      '<https://mw.example/unsubscribe/abc>',
    );
  });

  it('escapes a leading dot, so that no line needs dot-stuffing', async () => {
    // The second dot lands at a line's start after a soft line break.
    const text = `${'a'.repeat(75)}.b\n.c`;
    const raw = await buildLeanMessage({ ...base, text });
    expect(
      raw
        .toString('latin1')
        .split('\r\n')
        .filter((line) => line.startsWith('.')),
    ).toEqual([]);
    expect((await PostalMime.parse(raw)).text).toBe(`${text}\n`);
  });

  it('gives every message a boundary of its own', async () => {
    const boundaryOf = (raw: Buffer) => /boundary="([^"]+)"/.exec(raw.toString())?.[1];
    const [one, two] = await Promise.all([buildLeanMessage(base), buildLeanMessage(base)]);
    expect(boundaryOf(one)).toMatch(/^_mw_[0-9a-f-]{36}$/);
    expect(boundaryOf(one)).not.toBe(boundaryOf(two));
  });

  it('signs what a DKIM verifier passes', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;
    const raw = await buildLeanMessage({
      ...base,
      dkim: {
        domainName: 'shop.example',
        keySelector: 'mw',
        privateKey,
        headerFieldNames:
          'From:Subject:Date:Message-ID:To:MIME-Version:Content-Type:List-Unsubscribe',
      },
    });
    const result = await dkimVerify(raw, {
      resolver: async (name: string, type: string) => {
        if (name === 'mw._domainkey.shop.example' && type === 'TXT') return [[record]];
        throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      },
    });
    expect(result.results[0]?.status.result).toBe('pass');
  });
});
