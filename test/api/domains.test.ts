import { createPublicKey } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decryptSecret } from '../../domain/shared/encryption.js';
import { withDatabase } from '../helpers/database.js';
import { startDnsServer, type DnsServer } from '../helpers/dns-server.js';
import { keepHistoryOfCompletedRun } from '../helpers/histories.js';
import { uniqueDomain } from '../helpers/domains.js';
import { eventually } from '../helpers/eventually.js';
import { projectFixture } from '../helpers/project-fixture.js';
import { startStack, type TestStack } from '../helpers/stack.js';

const SPF_INCLUDE = '_spf.mailwright.test';
// This file's 2-second re-check reaches every domain of the shared database: its DNS server
// answers for this file's own zone only, so other files' domains stay as they are.
const ZONE = 'domains-file.test';
const domainName = (label: string): string => uniqueDomain(label, ZONE);
let dns: DnsServer;
let stack: TestStack;
beforeAll(async () => {
  dns = await startDnsServer({ zones: [ZONE] });
  stack = await startStack({
    env: {
      DNS_SERVERS: dns.address,
      DOMAIN_RECHECK_INTERVAL: '2s',
      SPF_INCLUDE,
      DNS_TIMEOUT_MS: '1000',
    },
  });
});
afterAll(async () => {
  await stack?.stop();
  await dns?.stop();
});

async function waitForStatus(
  projectId: string,
  key: string,
  domainId: string,
  status: string,
): Promise<any> {
  let domain: any;
  return eventually(
    async () => {
      const list = await stack.api.get(`/domains/project/${projectId}`, { key });
      domain = list.body.find((d: { id: string }) => d.id === domainId);
      return domain?.status === status && domain;
    },
    {
      what: `the domain to be ${status}`,
      intervalMs: 200,
      describe: () => JSON.stringify(domain),
    },
  );
}

describe('sending domains', () => {
  it('answers the DNS records and keeps the DKIM private key encrypted', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const name = domainName('records');
    const res = await stack.api.post('/domains', {
      ...sk,
      body: { domain: `  ${name.toUpperCase()}. ` },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ domain: name, status: 'PENDING', verified: false });
    const [dkim, spf, dmarc] = res.body.records;
    expect(dkim).toMatchObject({ type: 'TXT', purpose: 'dkim', required: true, verified: false });
    expect(dkim.name).toMatch(
      new RegExp(`^mw[a-z0-9]{6}\\._domainkey\\.${name.replace(/\./g, '\\.')}$`),
    );
    expect(spf).toEqual({
      type: 'TXT',
      name,
      value: `v=spf1 include:${SPF_INCLUDE} ~all`,
      purpose: 'spf',
      required: true,
      verified: false,
    });
    expect(dmarc).toMatchObject({ name: `_dmarc.${name}`, purpose: 'dmarc', required: false });

    const publicKey = /p=([A-Za-z0-9+/=]+)/.exec(dkim.value)?.[1] as string;
    const key = createPublicKey({
      key: Buffer.from(publicKey, 'base64'),
      format: 'der',
      type: 'spki',
    });
    expect(key.asymmetricKeyDetails?.modulusLength).toBe(2048);

    const [row] = await withDatabase(
      async (db) =>
        (await db.query('SELECT dkim_private_key FROM domains WHERE id = $1', [res.body.id])).rows,
    );
    expect(row.dkim_private_key).toMatch(/^v1:/);
    expect(row.dkim_private_key).not.toContain('PRIVATE KEY');
    const pem = decryptSecret(row.dkim_private_key, stack.env.ENCRYPTION_KEY as string);
    const derived = createPublicKey(pem).export({ type: 'spki', format: 'der' }).toString('base64');
    expect(derived).toBe(publicKey);
    expect((await stack.api.get(`/domains/project/${project.id}`, sk)).body).toHaveLength(1);
  });

  it('becomes verified only when DKIM and SPF are published, found by the schedule alone', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const name = domainName('verify');
    const added = (await stack.api.post('/domains', { ...sk, body: { domain: name } })).body;
    const [dkim, spf] = added.records;

    const nothing = await stack.api.get(`/domains/${added.id}/verify`, sk);
    expect(nothing.body).toMatchObject({ status: 'PENDING', verified: false });
    expect(nothing.body.lastError).toMatch(/DKIM and SPF/);

    dns.publishTxt(dkim.name, dkim.value);
    dns.publishTxt(name, 'v=spf1 include:_spf.someone-else.test ~all');
    const half = await stack.api.get(`/domains/${added.id}/verify`, sk);
    expect(half.body.status).toBe('PENDING');
    expect(half.body.records.map((r: { verified: boolean }) => r.verified)).toEqual([
      true,
      false,
      false,
    ]);

    // Publish the right SPF record and let the 2-second schedule find it, with no manual call.
    dns.removeTxt(name);
    dns.publishTxt(name, spf.value);
    dns.publishTxt(`_dmarc.${name}`, 'v=DMARC1; p=none;');
    const verified = await waitForStatus(project.id, sk.key, added.id, 'VERIFIED');
    expect(verified.verified).toBe(true);
    expect(verified.records.map((r: { verified: boolean }) => r.verified)).toEqual([
      true,
      true,
      true,
    ]);
    expect(verified.verifiedAt).not.toBeNull();

    // Records that vanish get the domain flagged by the next scheduled check.
    dns.removeTxt(dkim.name);
    const flagged = await waitForStatus(project.id, sk.key, added.id, 'FAILED');
    expect(flagged.lastError).toMatch(/DKIM/);
    dns.publishTxt(dkim.name, dkim.value);
    await waitForStatus(project.id, sk.key, added.id, 'VERIFIED');

    await keepHistoryOfCompletedRun(
      'recheck-domains',
      'recheckDomains',
      stack.env.TEMPORAL_TASK_QUEUE as string,
    );
  });

  it('refuses a domain of another project (409), a bad name (422) and a foreign projectId (403)', async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const name = domainName('claimed');
    expect((await stack.api.post('/domains', { ...a.sk, body: { domain: name } })).status).toBe(
      201,
    );
    const taken = await stack.api.post('/domains', { ...b.sk, body: { domain: name } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('CONFLICT');
    for (const domain of ['localhost', '127.0.0.1', 'no spaces.com', 'a..b.com', '-x.com', 'com']) {
      const res = await stack.api.post('/domains', { ...b.sk, body: { domain } });
      expect(res.status, domain).toBe(422);
      expect(res.body.error.errors[0]).toMatchObject({ field: 'domain', code: 'invalid_domain' });
    }
    const foreign = await stack.api.post('/domains', {
      ...b.sk,
      body: { domain: domainName('foreign'), projectId: a.project.id },
    });
    expect(foreign.status).toBe(403);
    expect((await stack.api.get('/domains/project/' + b.project.id, b.sk)).body).toEqual([]);
  });

  it("gives 404 for another project's domains and deletes one's own", async () => {
    const a = await projectFixture(stack.api);
    const b = await projectFixture(stack.api);
    const domain = (
      await stack.api.post('/domains', { ...a.sk, body: { domain: domainName('mine') } })
    ).body;
    expect((await stack.api.get(`/domains/project/${a.project.id}`, b.sk)).status).toBe(404);
    expect((await stack.api.get(`/domains/${domain.id}/verify`, b.sk)).status).toBe(404);
    expect((await stack.api.delete(`/domains/${domain.id}`, b.sk)).status).toBe(404);
    expect((await stack.api.delete(`/domains/${domain.id}`, a.sk)).status).toBe(204);
    expect((await stack.api.get(`/domains/project/${a.project.id}`, a.sk)).body).toEqual([]);
    expect(
      (
        await stack.api.post('/domains', {
          key: a.project.publicKey,
          body: { domain: domainName('pk') },
        })
      ).status,
    ).toBe(401);
  });
});
