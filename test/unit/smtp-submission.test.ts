import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { MESSAGE_BYTES_MAX } from '../../domain/sending/send-limits.pure.js';
import { planSend } from '../../domain/sending/send-request.pure.js';
import { ERROR_CODES } from '../../domain/shared/error-codes.pure.js';
import { replyForRefusal } from '../../domain/submission/smtp-reply.pure.js';
import { readSubmittedMessage, textAsHtml } from '../../domain/submission/submitted-message.js';
import { literalTemplate } from '../../domain/templates/literal-template.pure.js';
import { renderTemplate, templateProblems } from '../../domain/templates/template-engine.js';
import { loadConfig } from '../../runtime/config.js';
import { ensureSelfSignedCertificate } from '../../runtime/embedded/self-signed-certificate.js';
import { readSubmissionTls } from '../../runtime/submission-tls.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'mw-submission-'));
  dirs.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('literalTemplate', () => {
  // Strings rich in the characters template syntax is made of.
  const templateish = fc.string({
    unit: fc.oneof(
      fc.constantFrom('{', '}', '%', '#', '{{', '{%', '{#', '}}', '%}', '"', "'", '\\', '\n', ' '),
      fc.string({ unit: 'grapheme', maxLength: 3 }),
    ),
  });

  it('renders to the text itself, HTML-escaped or not, and is never a template problem', () => {
    fc.assert(
      fc.property(templateish, (text) => {
        const source = literalTemplate(text);
        expect(templateProblems(source, 'body')).toEqual([]);
        expect(renderTemplate(source, { name: 'x' })).toBe(text);
        expect(renderTemplate(source, { name: 'x' }, { escape: false })).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps CSS, Plunk-style and nunjucks-style text as written', () => {
    for (const text of [
      '<style>p { color: red } @media (x) {{ a: b }}</style>',
      "{{ name ?? 'there' }}",
      '{% if x %}{% endif %}{# note #}{% raw %}',
      '{{{ triple }}}',
    ])
      expect(renderTemplate(literalTemplate(text), { name: 'Ada', x: true })).toBe(text);
  });
});

describe('replyForRefusal', () => {
  it('answers every error code, with a reply code and an enhanced status', () => {
    for (const code of ERROR_CODES) {
      const reply = replyForRefusal({ code, message: 'Something' });
      expect(reply.code).toBeGreaterThanOrEqual(400);
      expect(reply.message).toMatch(/^[45]\.\d\.\d+ /);
      expect(String(reply.code)[0]).toBe(reply.message[0]);
    }
  });

  it('maps the refusals a client must tell apart', () => {
    const validation = (code: string) =>
      replyForRefusal({
        code: 'VALIDATION_ERROR',
        message: 'Validation failed',
        errors: [{ field: 'f', message: 'why', code }],
      });
    expect(validation('unverified_domain')).toEqual({ code: 550, message: '5.7.1 f: why' });
    expect(validation('too_big')).toEqual({ code: 552, message: '5.3.4 f: why' });
    expect(validation('required')).toEqual({ code: 554, message: '5.6.0 f: why' });
    expect(replyForRefusal({ code: 'BILLING_LIMIT_EXCEEDED', message: 'Cap' }).code).toBe(452);
    expect(
      replyForRefusal({ code: 'RATE_LIMIT_EXCEEDED', message: 'Too many', suggestion: 'Wait.' }),
    ).toEqual({ code: 452, message: '4.7.0 Too many. Wait.' });
    expect(replyForRefusal({ code: 'INTERNAL_ERROR', message: 'x' }).code).toBe(451);
  });

  it('keeps a reply on one line of bounded length', () => {
    const reply = replyForRefusal({
      code: 'VALIDATION_ERROR',
      message: 'Validation failed',
      errors: Array.from({ length: 50 }, (_, i) => ({
        field: `f${i}`,
        message: 'a\r\nlong reason',
        code: 'x',
      })),
    });
    expect(reply.message).not.toMatch(/[\r\n]/);
    expect(reply.message.length).toBeLessThanOrEqual(450);
  });
});

describe('readSubmittedMessage', () => {
  const message = (lines: string[], body = 'Hello'): Buffer =>
    Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}\r\n`);

  it('keeps custom headers /v1/send allows, once each, and drops structural and reserved ones', async () => {
    const read = await readSubmittedMessage(
      message([
        'From: "Shop" <shop@example.test>',
        'To: "Ada" <ada@example.com>, bob@example.com',
        'Cc: Cy <CY@example.com>',
        'Subject: Hi {{ you }}',
        'Message-ID: <abc@app.test>',
        'Reply-To: a@example.test, b@example.test',
        'Received: from somewhere',
        'Content-Language: en',
        'X-Thing: one',
        'X-Thing: two',
        `X-Long: ${'y'.repeat(999)}`,
        'List-Unsubscribe: <https://app.test/u>',
        'References: <r1@app.test>',
      ]),
    );
    expect(read.headers).toEqual({ 'X-Thing': 'one', References: '<r1@app.test>' });
    expect(read.from).toEqual({ name: 'Shop', email: 'shop@example.test' });
    expect(read.replyTo).toBe('a@example.test');
    expect(read.messageId).toBe('<abc@app.test>');
    expect(read.subject).toBe(literalTemplate('Hi {{ you }}'));
    expect(read.body).toBe(textAsHtml('Hello'));
    expect([...read.displayNames]).toEqual([
      ['ada@example.com', 'Ada'],
      ['cy@example.com', 'Cy'],
    ]);
  });

  it('replaces a malformed Message-ID with none (the email then has its own)', async () => {
    for (const id of ['no-brackets@app.test', '<no-at>', '<two@at@x>', `<${'a'.repeat(250)}@b>`]) {
      const read = await readSubmittedMessage(message([`Message-ID: ${id}`, 'Subject: s']));
      expect(read.messageId, id).toBeUndefined();
    }
  });

  it('names unnamed attachments and marks parts referenced by Content-ID inline', async () => {
    const raw = [
      'From: a@example.test',
      'Subject: Files',
      'MIME-Version: 1.0',
      'Content-Type: multipart/related; boundary="b"',
      '',
      '--b',
      'Content-Type: text/html',
      '',
      '<img src="cid:logo@x">',
      '--b',
      'Content-Type: image/png',
      'Content-ID: <logo@x>',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('png').toString('base64'),
      '--b',
      'Content-Type: application/octet-stream',
      'Content-Disposition: attachment',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('bin').toString('base64'),
      '--b--',
      '',
    ].join('\r\n');
    const read = await readSubmittedMessage(Buffer.from(raw));
    expect(read.body).toContain('cid:logo@x');
    expect(read.attachments).toEqual([
      {
        filename: 'attachment-1',
        content: Buffer.from('png').toString('base64'),
        contentType: 'image/png',
        contentId: 'logo@x',
        disposition: 'inline',
      },
      {
        filename: 'attachment-2',
        content: Buffer.from('bin').toString('base64'),
        contentType: 'application/octet-stream',
        contentId: undefined,
        disposition: 'attachment',
      },
    ]);
  });

  it('has no body for a message without text, as /v1/send has none without `body`', async () => {
    const read = await readSubmittedMessage(message(['Subject: Empty'], ''));
    expect(read.body).toBeUndefined();
  });
});

describe("planSend and a submitted message's Message-ID", () => {
  const input = {
    to: 'a@example.com',
    subject: 's',
    body: 'b',
    from: 'me@example.test',
  };
  const plan = (messageId: string) =>
    planSend({
      input: { ...input, messageId },
      template: null,
      verifiedDomains: [{ id: 'd', domain: 'example.test' }],
      syntaxProblems: () => [],
    });

  it('carries a well-formed one in the headers to the delivery, and refuses another', () => {
    expect(plan('<x@app.test>')).toMatchObject({
      plan: { headers: { 'Message-ID': '<x@app.test>' } },
    });
    expect(plan('x@app.test')).toEqual({
      errors: [{ field: 'messageId', message: 'Not a Message-ID (<left@right>)', code: 'invalid' }],
    });
  });
});

describe('SMTP submission settings and certificates', () => {
  it('takes the ports, certificate files, host and size, within /v1/send’s message limit', async () => {
    const dir = await tempDir();
    const config = await loadConfig({
      DATA_DIR: dir,
      PUBLIC_URL: 'https://mail.example.org',
      SMTP_SUBMISSION_PORT: '587',
      SMTP_SUBMISSION_TLS_PORT: '465',
      SMTP_TLS_CERT: 'cert.pem',
      SMTP_TLS_KEY: 'key.pem',
    });
    expect(config.submission).toEqual({
      port: 587,
      tlsPort: 465,
      portsOptional: false,
      tls: { certPath: path.resolve('cert.pem'), keyPath: path.resolve('key.pem') },
      host: 'mail.example.org',
      maxBytes: MESSAGE_BYTES_MAX,
    });
    // Unset, or empty as .env.example lists it: off.
    expect((await loadConfig({ DATA_DIR: dir })).submission.port).toBeUndefined();
    expect(
      (await loadConfig({ DATA_DIR: dir, SMTP_SUBMISSION_PORT: '', SMTP_SUBMISSION_TLS_PORT: ' ' }))
        .submission,
    ).toMatchObject({ port: undefined, tlsPort: undefined });
    await expect(loadConfig({ DATA_DIR: dir, SMTP_SUBMISSION_PORT: '0' })).rejects.toThrow(
      /SMTP_SUBMISSION_PORT/,
    );
    await expect(
      loadConfig({ DATA_DIR: dir, SMTP_SUBMISSION_MAX_BYTES: String(MESSAGE_BYTES_MAX + 1) }),
    ).rejects.toThrow(/SMTP_SUBMISSION_MAX_BYTES/);
  });

  it('makes a self-signed certificate once, with a private key only its owner reads', async () => {
    const dir = await tempDir();
    const first = await ensureSelfSignedCertificate({ dir, hostname: 'mail.example.org' });
    expect(first.created).toBe(true);
    expect((await stat(first.keyPath)).mode & 0o777).toBe(0o600);
    const cert = await readFile(first.certPath);
    const again = await ensureSelfSignedCertificate({ dir, hostname: 'mail.example.org' });
    expect(again.created).toBe(false);
    expect((await readFile(again.certPath)).equals(cert)).toBe(true);
    const tls = await readSubmissionTls(first);
    expect(tls.sha256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('refuses certificate files that are missing or do not belong together', async () => {
    const dir = await tempDir();
    const a = await ensureSelfSignedCertificate({ dir: path.join(dir, 'a'), hostname: 'a.test' });
    const b = await ensureSelfSignedCertificate({ dir: path.join(dir, 'b'), hostname: 'b.test' });
    await expect(
      readSubmissionTls({ certPath: path.join(dir, 'none.pem'), keyPath: a.keyPath }),
    ).rejects.toThrow(/SMTP_TLS_CERT \/ SMTP_TLS_KEY could not be read/);
    await expect(readSubmissionTls({ certPath: a.certPath, keyPath: b.keyPath })).rejects.toThrow(
      /not a PEM certificate and its key/,
    );
    const junk = path.join(dir, 'junk.pem');
    await writeFile(junk, 'not a certificate');
    await expect(readSubmissionTls({ certPath: junk, keyPath: a.keyPath })).rejects.toThrow(
      /not a PEM certificate and its key/,
    );
  });
});
