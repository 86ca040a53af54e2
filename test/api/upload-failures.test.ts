import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  campaignStats,
  createCampaign,
  importContacts,
  waitForCampaign,
} from '../helpers/campaigns.js';
import type { DnsServer } from '../helpers/dns-server.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { waitForJob } from '../helpers/jobs.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { closing, filePart, rawRequest, textPart } from '../helpers/raw-http.js';
import { startSendingStack } from '../helpers/sending-stack.js';
import type { TestStack } from '../helpers/stack.js';

let dns: DnsServer;
let stack: TestStack;
let stop: (() => Promise<void>) | undefined;
beforeAll(async () => {
  // A send rate that makes the campaign below last several seconds, so the uploads land while
  // it sends.
  ({ dns, stack, stop } = await startSendingStack({ SEND_RATE_PER_SECOND: '150' }));
});
afterAll(async () => {
  await stop?.();
});

const BOUNDARY = 'mailwright-test-boundary';
const CSV = 'email,plan\nann@example.com,pro\nbo@example.com,free\n';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);
const ROUTES = [
  { path: '/contacts/import', field: 'file', filename: 'list.csv', content: Buffer.from(CSV) },
  { path: '/uploads/image', field: 'image', filename: 'dot.png', content: PNG },
] as const;

const multipart = (boundary = BOUNDARY) => ({
  'Content-Type': `multipart/form-data; boundary=${boundary}`,
});

/** The API child is the one the file started: no request made it exit. */
const apiStillUp = async (): Promise<void> => {
  expect(stack.apiProcess.child.exitCode).toBeNull();
  expect(stack.apiProcess.child.signalCode).toBeNull();
  expect((await stack.api.get('/health')).status).toBe(200);
};

describe.each(ROUTES)('a broken upload to $path', (route) => {
  const whole = () =>
    Buffer.concat([filePart({ boundary: BOUNDARY, ...route }), closing(BOUNDARY)]);
  const send = async (
    key: string,
    options: {
      body: Buffer;
      headers?: Record<string, string>;
      declaredLength?: number;
      then?: 'wait' | 'end' | 'destroy';
    },
  ) =>
    rawRequest({
      baseUrl: stack.api.baseUrl,
      path: route.path,
      headers: { Authorization: `Bearer ${key}`, ...multipart(), ...options.headers },
      send: options.body,
      declaredLength: options.declaredLength,
      then: options.then,
    });
  const contactCount = async (sk: { key: string }) =>
    (await stack.api.get('/contacts?limit=1', sk)).body.total as number;

  it('ends as a 400 in the envelope for every way the body can be wrong, and imports nothing', async () => {
    const { sk } = await projectFixture(stack.api);
    const body = whole();
    const variants: [string, Parameters<typeof send>[1]][] = [
      // The closing boundary never comes: the body stops right after the file's last byte.
      ['cut before its closing boundary', { body: body.subarray(0, body.length - 30) }],
      // Half the file, with a Content-Length that says so: busboy sees the form end mid-file.
      ['cut in the middle of the file', { body: body.subarray(0, 140) }],
      [
        'of another boundary than its header names',
        { body, headers: multipart('not-the-boundary') },
      ],
      ['with no boundary at all', { body, headers: { 'Content-Type': 'multipart/form-data' } }],
      [
        'with an empty file',
        {
          body: Buffer.concat([
            filePart({ boundary: BOUNDARY, ...route, content: '' }),
            closing(BOUNDARY),
          ]),
        },
      ],
      [
        'with a second file',
        {
          body: Buffer.concat([
            filePart({ boundary: BOUNDARY, ...route }),
            filePart({ boundary: BOUNDARY, ...route, field: 'other' }),
            closing(BOUNDARY),
          ]),
        },
      ],
    ];
    for (const [what, options] of variants) {
      const answer = await send(sk.key, options);
      expect(answer?.status, `${what}: ${JSON.stringify(answer)}`).toBe(400);
      expect(answer?.body.success, what).toBe(false);
      expect(answer?.body.error.code, what).toBe('BAD_REQUEST');
      expect(answer?.body.error.requestId, what).toMatch(/\S/);
    }
    // A text field beside the file that PostgreSQL could not store is named, as in JSON bodies.
    const nul = await send(sk.key, {
      body: Buffer.concat([
        textPart({ boundary: BOUNDARY, name: 'note', value: 'a\u0000b' }),
        filePart({ boundary: BOUNDARY, ...route }),
        closing(BOUNDARY),
      ]),
    });
    expect(nul?.status, JSON.stringify(nul)).toBe(422);
    expect(nul?.body.error.errors).toEqual([
      expect.objectContaining({ field: 'note', code: 'invalid_string' }),
    ]);
    expect(await contactCount(sk)).toBe(0);
    await apiStillUp();
  });

  it('survives a client that promises more than it sends, or goes away mid-file', async () => {
    const { sk } = await projectFixture(stack.api);
    const body = whole();
    // A real socket writes half the body, then closes its side: the server never gets the rest.
    const halfClosed = await send(sk.key, {
      body: body.subarray(0, Math.floor(body.length / 2)),
      declaredLength: body.length,
      then: 'end',
    });
    if (halfClosed) expect(halfClosed.status).toBe(400);
    // A client that aborts outright cannot read an answer; the server must simply carry on.
    await send(sk.key, {
      body: body.subarray(0, Math.floor(body.length / 2)),
      declaredLength: body.length,
      then: 'destroy',
    });
    expect(await contactCount(sk)).toBe(0);
    await apiStillUp();
  });
});

describe('100 truncated uploads at each upload route while a campaign sends', () => {
  it('leave the service up, the campaign delivered to every recipient once, and imports working', async () => {
    const { sk } = await projectFixture(stack.api);
    const { domain } = await verifiedDomain(stack.api, dns, sk.key, uniqueDomain('uploads'));
    const tag = `uploads-${Date.now()}`;
    const recipients = 1_500;
    await importContacts(
      stack.api,
      sk,
      Array.from({ length: recipients }, (_, i) => ({ email: `r${i}-${tag}@example.com` })),
    );
    const campaign = await createCampaign(stack.api, sk, {
      name: 'Under upload fire',
      subject: `Fire ${tag}`,
      body: '<p>Hello {{ email }}</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    const started = await stack.api.post(`/campaigns/${campaign.id}/send`, { ...sk, body: {} });
    expect(started.status, started.text).toBeLessThan(300);
    await waitForCampaign(stack.api, sk, campaign.id, { until: (c) => c.status === 'SENDING' });

    const answers = await Promise.all(
      ROUTES.flatMap((route) => {
        const body = Buffer.concat([filePart({ boundary: BOUNDARY, ...route }), closing(BOUNDARY)]);
        return Array.from({ length: 100 }, (_, i) =>
          rawRequest({
            baseUrl: stack.api.baseUrl,
            path: route.path,
            headers: { Authorization: `Bearer ${sk.key}`, ...multipart() },
            // Every other one is cut before its closing boundary, the rest mid-file.
            send: body.subarray(0, i % 2 === 0 ? body.length - 30 : 120),
          }),
        );
      }),
    );
    expect(answers.map((a) => a?.status)).toEqual(answers.map(() => 400));
    await apiStillUp();
    // While the campaign was still sending: the uploads did not wait for it.
    expect(
      stack.smtp.messages.filter((m) => m.parsed.subject === `Fire ${tag}`).length,
    ).toBeLessThan(recipients);

    const done = await waitForCampaign(stack.api, sk, campaign.id, { timeoutMs: 120_000 });
    expect(done.status).toBe('SENT');
    const mine = stack.smtp.messages.filter((m) => m.parsed.subject === `Fire ${tag}`);
    const to = mine.flatMap((m) => m.to);
    expect(mine.length).toBe(recipients);
    expect(new Set(to).size).toBe(recipients);
    expect((await campaignStats(stack.api, sk, campaign.id)).sent).toBe(recipients);

    // A normal import works afterwards.
    const ok = await stack.api.upload('/contacts/import', {
      field: 'file',
      content: 'email\nafter-the-fire@example.com\n',
      key: sk.key,
    });
    expect(ok.status, ok.text).toBe(202);
    const job = await waitForJob(stack.api, `/contacts/import/${ok.body.jobId}`, sk.key);
    expect(job).toMatchObject({ status: 'COMPLETED', result: { created: 1 } });
  }, 240_000);
});
