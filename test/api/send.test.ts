import { Resolver } from 'node:dns/promises';
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withDatabase } from '../helpers/database.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { keepHistory, keepHistoryOfCompletedRun } from '../helpers/histories.js';
import { closedRunResult } from '../helpers/temporal-runs.js';
import { uniqueEmail } from '../helpers/factories.js';
import { eventually } from '../helpers/eventually.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ dns, stack, stop } = await startSendingStack({ EMAIL_DISPATCH_INTERVAL: '2s' }));
});
afterAll(async () => {
  await stop?.();
});

async function sender() {
  const fixture = await projectFixture(stack.api);
  const { domain } = await verifiedDomain(stack.api, dns, fixture.sk.key, uniqueDomain('send'));
  return { ...fixture, domain };
}

async function emailRows(
  ids: string[],
): Promise<{ id: string; status: string; to_address: string }[]> {
  return withDatabase(
    async (db) =>
      (
        await db.query('SELECT id, status, to_address FROM emails WHERE id = ANY($1::uuid[])', [
          ids,
        ])
      ).rows,
  );
}

/** Waits until every email has `status` (SENT commits just after the server's answer). */
async function waitForStatus(ids: string[], status: string): Promise<void> {
  let rows: { status: string }[] = [];
  await eventually(
    async () => {
      rows = await emailRows(ids);
      return rows.length === ids.length && rows.every((r) => r.status === status);
    },
    {
      what: `every email ${status}`,
      timeoutMs: 15_000,
      intervalMs: 50,
      describe: () => JSON.stringify(rows.map((r) => r.status)),
    },
  );
}

/** Nothing reached the SMTP server for this address within a short wait. */
async function expectNothingSentTo(address: string): Promise<void> {
  // The outbox is mail's only way out: no row to the address that is not SUPPRESSED means
  // nothing was sent and nothing will be, with no wait to guess the length of.
  const rows = await withDatabase(
    async (db) =>
      (await db.query('SELECT status FROM emails WHERE to_address = $1', [address])).rows,
  );
  expect(rows.filter((r) => r.status !== 'SUPPRESSED')).toEqual([]);
  expect(stack.smtp.messages.filter((m) => m.to.includes(address))).toHaveLength(0);
}

describe('POST /v1/send', () => {
  it('delivers a rendered template, DKIM-signed, with headers, attachments and a text part', async () => {
    const { sk, domain } = await sender();
    const template = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'Receipt',
        type: 'TRANSACTIONAL',
        subject: 'Order {{ order }} for {{ firstName ?? "you" }}',
        body: '<h1>Thanks {{ firstName }}</h1><p>Total: {{ total }}</p><p>{{ note }}</p>',
        from: `shop@${domain}`,
        fromName: 'The Shop',
      },
    });
    expect(template.status, template.text).toBe(201);
    const to = uniqueEmail('buyer');
    const pdf = Buffer.from('%PDF-1.4 fake receipt \u0000\u0001 binary');
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: {
        to: { name: 'Ada Buyer', email: to },
        template: template.body.id,
        data: {
          firstName: 'Ada',
          order: 'A-17',
          total: '12.50',
          note: { value: '<script>x</script>', persistent: false },
        },
        reply: `support@${domain}`,
        headers: { 'X-Campaign': 'spring', 'X-Order-Id': 'A-17' },
        attachments: [
          {
            filename: 'receipt.pdf',
            content: pdf.toString('base64'),
            contentType: 'application/pdf',
          },
        ],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.success).toBe(true);
    const [item] = res.body.data.emails;
    expect(item).toMatchObject({ contact: { email: to }, status: 'QUEUED' });
    expect((await emailRows([item.email]))[0]).toMatchObject({ id: item.email, to_address: to });

    const mail = await stack.smtp.waitFor((m) => m.to.includes(to));
    expect(mail.parsed.subject).toBe('Order A-17 for Ada');
    expect(mail.parsed.from).toMatchObject({ name: 'The Shop', address: `shop@${domain}` });
    expect(mail.parsed.replyTo?.[0]?.address).toBe(`support@${domain}`);
    expect(mail.parsed.html).toContain('<h1>Thanks Ada</h1>');
    expect(mail.parsed.html).toContain('&lt;script&gt;');
    expect(mail.parsed.text).toContain('THANKS ADA');
    expect(mail.parsed.messageId).toBe(`<${item.email}@${domain}>`);
    const headers = Object.fromEntries(mail.parsed.headers.map((h) => [h.key, h.value]));
    expect(headers['x-campaign']).toBe('spring');
    expect(headers['x-order-id']).toBe('A-17');
    const [attached] = mail.parsed.attachments;
    expect(attached).toMatchObject({ filename: 'receipt.pdf', mimeType: 'application/pdf' });
    expect(Buffer.from(attached?.content as ArrayBuffer).equals(pdf)).toBe(true);

    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    const dkim = await dkimVerify(mail.raw, {
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
    expect(dkim.results).toHaveLength(1);
    expect(dkim.results[0]?.status.result).toBe('pass');
    expect(dkim.results[0]?.signingDomain).toBe(domain);

    // The transient value was not stored; the contact was created unsubscribed (send's default).
    const contact = (await stack.api.get(`/contacts/${item.contact.id}`, sk)).body;
    expect(contact).toMatchObject({
      subscribed: false,
      data: { firstName: 'Ada', order: 'A-17', total: '12.50' },
    });
    await waitForEvent(sk.key, 'email.sent', item.email);
    expect((await emailRows([item.email]))[0]?.status).toBe('SENT');
  });

  it('sends inline content to several recipients, one email each', async () => {
    const { sk, domain } = await sender();
    const recipients = [uniqueEmail('r1'), { name: 'Two', email: uniqueEmail('r2') }];
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: {
        to: recipients,
        subject: 'Hello {{ email }}',
        body: '<p>Hi</p>',
        from: { name: 'Team', email: `team@${domain}` },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.emails).toHaveLength(2);
    const first = await stack.smtp.waitFor((m) => m.to.includes(recipients[0] as string));
    expect(first.parsed.subject).toBe(`Hello ${recipients[0]}`);
    await stack.smtp.waitFor((m) => m.to.includes((recipients[1] as { email: string }).email));
  });

  it('refuses the public key, an unverified sender and missing content, sending nothing', async () => {
    const { project, sk, domain } = await sender();
    const to = uniqueEmail('never');
    const base = { to, subject: 's', body: 'b', from: `a@${domain}` };
    const pk = await stack.api.post('/v1/send', { key: project.publicKey, body: base });
    expect(pk.status).toBe(401);
    expect(pk.body.error.code).toBe('INVALID_API_KEY');
    const unverified = await stack.api.post('/v1/send', {
      ...sk,
      body: { ...base, from: 'a@elsewhere.example.test' },
    });
    expect(unverified.status).toBe(422);
    expect(unverified.body.error.errors[0]).toMatchObject({
      field: 'from',
      code: 'unverified_domain',
    });
    const empty = await stack.api.post('/v1/send', { ...sk, body: { to, from: `a@${domain}` } });
    expect(empty.status).toBe(422);
    expect(empty.body.error.errors.map((e: { field: string }) => e.field).sort()).toEqual([
      'body',
      'subject',
    ]);
    await expectNothingSentTo(to);
    expect(
      (await stack.api.post('/contacts/lookup', { ...sk, body: { emails: [to] } })).body.found,
    ).toEqual([]);
  });

  it('holds every limit at its edge: the limit passes, one more fails with 422 and sends nothing', async () => {
    const { sk, domain } = await sender();
    const send = (extra: Record<string, unknown>, to = uniqueEmail('edge')) =>
      stack.api.post('/v1/send', {
        ...sk,
        body: { to, subject: 's', body: '<p>b</p>', from: `a@${domain}`, ...extra },
      });
    const file = (bytes: number) => ({
      filename: 'f.bin',
      content: Buffer.alloc(bytes, 7).toString('base64'),
    });

    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['subject length', { subject: 'a'.repeat(998) }, { subject: 'a'.repeat(999) }],
      [
        'header value length',
        { headers: { 'X-Long': 'v'.repeat(998) } },
        { headers: { 'X-Long': 'v'.repeat(999) } },
      ],
      [
        'attachment count',
        { attachments: Array.from({ length: 10 }, () => file(10)) },
        { attachments: Array.from({ length: 11 }, () => file(10)) },
      ],
      [
        'attachment bytes',
        { attachments: [file(10 * 1024 * 1024)] },
        { attachments: [file(10 * 1024 * 1024 + 1)] },
      ],
    ];
    for (const [name, ok, tooMuch] of cases) {
      const passTo = uniqueEmail('pass');
      const passed = await send(ok, passTo);
      expect(passed.status, `${name}: ${passed.text.slice(0, 300)}`).toBe(200);
      await stack.smtp.waitFor((m) => m.to.includes(passTo), { timeoutMs: 60_000 });
      const failTo = uniqueEmail('fail');
      const failed = await send(tooMuch, failTo);
      expect(failed.status, name).toBe(422);
      expect(failed.body.error.code).toBe('VALIDATION_ERROR');
      await expectNothingSentTo(failTo);
    }
  });

  it('refuses CR/LF injection in the subject, header names and header values', async () => {
    const { sk, domain } = await sender();
    const to = uniqueEmail('inject');
    const base = { to, subject: 's', body: 'b', from: `a@${domain}` };
    const attempts = [
      { ...base, subject: 'Hi\r\nBcc: victim@example.com' },
      { ...base, headers: { 'X-Test': 'ok\r\nBcc: victim@example.com' } },
      { ...base, headers: { 'X-Test\r\nBcc': 'victim@example.com' } },
      { ...base, headers: { 'X Test': 'space in name' } },
      { ...base, headers: { Bcc: 'victim@example.com' } },
      { ...base, from: { name: 'Evil\r\nBcc: victim@example.com', email: `a@${domain}` } },
    ];
    for (const body of attempts) {
      const res = await stack.api.post('/v1/send', { ...sk, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    await expectNothingSentTo(to);
  });

  it('writes concurrent sends together, each answered with its own email, judged on its own', async () => {
    const { project, sk, domain } = await sender();
    const suppressed = uniqueEmail('batch-suppressed');
    await withDatabase((db) =>
      db.query(
        `INSERT INTO suppressions (project_id, email, reason) VALUES ($1, $2, 'hard_bounce')`,
        [project.id, suppressed],
      ),
    );
    // 30 addresses sent to twice each and one suppressed address, all at once.
    const addresses = Array.from({ length: 30 }, (_, i) => uniqueEmail(`batch${i}`));
    const calls = [...addresses, ...addresses, suppressed].map((to, n) => ({ to, n }));
    const results = await Promise.all(
      calls.map(({ to, n }) =>
        stack.api.post('/v1/send', {
          ...sk,
          body: {
            to,
            subject: `Batch ${n} {{ plan }}`,
            body: '<p>Hi</p>',
            from: `team@${domain}`,
            data: { plan: `p${n}` },
          },
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(calls.length).fill(200));
    const answers = results.map((r) => r.body.data.emails[0]);
    expect(answers.map((a) => a.status)).toEqual([...Array(60).fill('QUEUED'), 'SUPPRESSED']);

    // Delivered, each with its own data: the email row keeps the subject as rendered then.
    await waitForStatus(
      answers.filter((a) => a.status === 'QUEUED').map((a) => a.email),
      'SENT',
    );
    const rows = await withDatabase(
      async (db) =>
        (
          await db.query<{
            id: string;
            to_address: string;
            contact_id: string;
            subject: string;
            at: string;
          }>(
            // The time as text: a Date would drop its microseconds.
            `SELECT id, to_address, contact_id, subject, created_at::text AS at
               FROM emails WHERE id = ANY($1::uuid[])`,
            [answers.map((a) => a.email)],
          )
        ).rows,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    calls.forEach(({ to, n }, i) => {
      const answer = answers[i];
      expect(answer.contact.email).toBe(to);
      expect(byId.get(answer.email), to).toMatchObject({
        to_address: to,
        contact_id: answer.contact.id,
        subject: n < 60 ? `Batch ${n} p${n}` : `Batch ${n} {{ plan }}`,
      });
    });
    // Emails written in one statement share its transaction's time: 61 sends, fewer statements.
    expect(new Set(rows.map((r) => r.at)).size).toBeLessThan(calls.length);

    const received = stack.smtp.messages.filter((m) => m.parsed.subject?.startsWith('Batch '));
    for (const { to, n } of calls.slice(0, 60))
      expect(
        received.some((m) => m.to.includes(to) && m.parsed.subject === `Batch ${n} p${n}`),
        to,
      ).toBe(true);
    await expectNothingSentTo(suppressed);
  });

  it("reads concurrent sends' templates together, each send with its own template or none", async () => {
    const { sk, domain } = await sender();
    const other = await sender();
    const template = async (key: typeof sk, from: string, name: string) => {
      const created = await stack.api.post('/templates', {
        ...key,
        body: {
          name,
          type: 'TRANSACTIONAL',
          subject: `${name} {{ n }}`,
          body: '<p>Hi</p>',
          from,
        },
      });
      expect(created.status, created.text).toBe(201);
      return created.body.id as string;
    };
    const a = await template(sk, `team@${domain}`, 'Alpha');
    const b = await template(sk, `team@${domain}`, 'Beta');
    const foreign = await template(other.sk, `team@${other.domain}`, 'Foreign');
    const unknown = '0190a6e0-0000-7000-8000-000000000000';
    // Each kind 8 times, interleaved, all at once: sends of one project share context reads.
    const kinds = ['a', 'b', 'none', 'foreign', 'unknown'] as const;
    const calls = Array.from({ length: 40 }, (_, n) => ({ n, kind: kinds[n % kinds.length]! }));
    const results = await Promise.all(
      calls.map(({ n, kind }) =>
        stack.api.post('/v1/send', {
          ...sk,
          body: {
            to: uniqueEmail(`ctx${n}`),
            data: { n },
            ...(kind === 'none'
              ? { subject: `Plain {{ n }}`, body: '<p>Hi</p>', from: `team@${domain}` }
              : { template: { a, b, foreign, unknown }[kind] }),
          },
        }),
      ),
    );
    calls.forEach(({ kind }, i) => {
      const result = results[i]!;
      if (kind === 'foreign' || kind === 'unknown') {
        expect(result.status, result.text).toBe(404);
        expect(result.body.error.code).toBe('NOT_FOUND');
      } else expect(result.status, result.text).toBe(200);
    });
    const accepted = calls.flatMap(({ n, kind }, i) =>
      results[i]!.status === 200 ? [{ n, kind, id: results[i]!.body.data.emails[0].email }] : [],
    );
    await waitForStatus(
      accepted.map((x) => x.id),
      'SENT',
    );
    const rows = await withDatabase(
      async (db) =>
        (
          await db.query<{ id: string; subject: string; template_id: string | null }>(
            'SELECT id, subject, template_id FROM emails WHERE id = ANY($1::uuid[])',
            [accepted.map((x) => x.id)],
          )
        ).rows,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const expected = { a: ['Alpha', a], b: ['Beta', b], none: ['Plain', null] } as const;
    for (const { n, kind, id } of accepted) {
      const [name, templateId] = expected[kind as keyof typeof expected];
      // Sent, the row keeps the subject as rendered with the email's data.
      expect(byId.get(id), String(n)).toMatchObject({
        subject: `${name} ${n}`,
        template_id: templateId,
      });
    }
    expect(accepted).toHaveLength(24);
  });

  it('suppresses marketing mail to unsubscribed contacts and anything to a suppressed address', async () => {
    const { project, sk, domain } = await sender();
    const marketing = (
      await stack.api.post('/templates', {
        ...sk,
        body: {
          name: 'News',
          subject: 'News',
          body: 'b',
          from: `news@${domain}`,
          type: 'MARKETING',
        },
      })
    ).body;
    const transactional = (
      await stack.api.post('/templates', {
        ...sk,
        body: {
          name: 'Reset',
          subject: 'Reset',
          body: 'b',
          from: `a@${domain}`,
          type: 'TRANSACTIONAL',
        },
      })
    ).body;
    const out = uniqueEmail('out');
    await stack.api.post('/contacts', { ...sk, body: { email: out, subscribed: false } });

    const news = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: out, template: marketing.id },
    });
    expect(news.body.data.emails[0].status).toBe('SUPPRESSED');
    const reset = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: out, template: transactional.id },
    });
    expect(reset.body.data.emails[0].status).toBe('QUEUED');
    await stack.smtp.waitFor((m) => m.to.includes(out) && m.parsed.subject === 'Reset');
    expect(
      stack.smtp.messages.filter((m) => m.to.includes(out) && m.parsed.subject === 'News'),
    ).toHaveLength(0);
    expect((await emailRows([news.body.data.emails[0].email]))[0]?.status).toBe('SUPPRESSED');

    const bounced = uniqueEmail('bounced');
    await withDatabase((db) =>
      db.query(
        `INSERT INTO suppressions (project_id, email, reason) VALUES ($1, $2, 'hard_bounce')`,
        [project.id, bounced],
      ),
    );
    const again = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: bounced, template: transactional.id },
    });
    expect(again.body.data.emails[0].status).toBe('SUPPRESSED');
    await expectNothingSentTo(bounced);
  });

  it('delivers exactly once through two 451 answers', async () => {
    const { sk, domain } = await sender();
    const to = uniqueEmail('greylisted');
    let refusals = 0;
    stack.smtp.setResponder((message) => {
      if (message.to.includes(to) && refusals < 2) {
        refusals += 1;
        throw Object.assign(new Error('Greylisted, try again later'), { responseCode: 451 });
      }
    });
    try {
      const res = await stack.api.post('/v1/send', {
        ...sk,
        body: { to, subject: 'Persistent', body: 'b', from: `a@${domain}` },
      });
      expect(res.status).toBe(200);
      await stack.smtp.waitFor((m) => m.to.includes(to), { timeoutMs: 30_000 });
      await waitForStatus([res.body.data.emails[0].email], 'SENT');
      // Once its send-email run has closed, no retry can send it again: then count.
      expect(await closedRunResult(`email-${res.body.data.emails[0].email}`)).toBe('SENT');
      expect(refusals).toBe(2);
      expect(stack.smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
      // The first refusal handed the email to a send-email workflow of its own, which retried.
      await keepHistory('send-email', `email-${res.body.data.emails[0].email}`);
    } finally {
      stack.smtp.setResponder(undefined);
    }
  });

  it('accepts mail while no worker runs and delivers it when one starts', async () => {
    const { sk, domain } = await sender();
    await stack.stopWorker('SIGTERM');
    const recipients = [uniqueEmail('waiting-a'), uniqueEmail('waiting-b')];
    const res = await stack.api.post('/v1/send', {
      ...sk,
      body: { to: recipients, subject: 'Waiting', body: '<p>b</p>', from: `a@${domain}` },
    });
    expect(res.status, res.text).toBe(200);
    const ids = res.body.data.emails.map((e: { email: string }) => e.email);
    // No worker runs, so nothing can leave the outbox.
    expect((await emailRows(ids)).map((r) => r.status)).toEqual(['QUEUED', 'QUEUED']);
    expect(stack.smtp.messages.filter((m) => recipients.some((to) => m.to.includes(to)))).toEqual(
      [],
    );

    await stack.startWorker();
    for (const to of recipients) await stack.smtp.waitFor((m) => m.to.includes(to));
    await waitForStatus(ids, 'SENT');

    // The schedule that keeps the delivery loop running leaves a replay fixture.
    const queue = stack.env.TEMPORAL_TASK_QUEUE as string;
    await keepHistoryOfCompletedRun('dispatch-queued-emails', 'dispatchQueuedEmails', queue);
  });

  it('answers a reused Idempotency-Key with 409 and sends once', async () => {
    const { sk, domain } = await sender();
    const to = uniqueEmail('once');
    const headers = { 'Idempotency-Key': `welcome-${to}` };
    const body = { to, subject: 'Once', body: 'b', from: `a@${domain}` };
    expect((await stack.api.post('/v1/send', { ...sk, headers, body })).status).toBe(200);
    const again = await stack.api.post('/v1/send', { ...sk, headers, body });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    await stack.smtp.waitFor((m) => m.to.includes(to));
    // One row in the outbox: the repeat queued nothing that could be sent later.
    const rows = await withDatabase(
      async (db) => (await db.query('SELECT id FROM emails WHERE to_address = $1', [to])).rows,
    );
    expect(rows).toHaveLength(1);
    expect(stack.smtp.messages.filter((m) => m.to.includes(to))).toHaveLength(1);
  });
});

async function waitForEvent(key: string, name: string, emailId: string): Promise<void> {
  await eventually(
    async () => {
      const events = (await stack.api.get(`/events?event=${name}`, { key })).body.data as {
        data: { emailId?: string };
      }[];
      return events.some((e) => e.data.emailId === emailId);
    },
    { what: `a ${name} event for ${emailId}`, timeoutMs: 15_000 },
  );
}
