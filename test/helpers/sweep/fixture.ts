import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { encryptSecret } from '../../../domain/shared/encryption.js';
import type { Client, HttpResponse } from '../http.js';
import { projectFixture } from '../project-fixture.js';
import type { Caller } from './send.js';

/** The resources a fixture holds, by the name path parameters refer to them with. */
export type Resources = Partial<Record<ResourceName, string>>;

export type ResourceName =
  | 'contact'
  | 'template'
  | 'segment'
  | 'workflow'
  | 'step'
  | 'transition'
  | 'campaign'
  | 'user'
  | 'field'
  | 'event'
  | 'domain';

export interface SweepFixture {
  caller: Caller;
  userId: string;
}

let dkim: { publicKey: string; privateKey: string } | undefined;

/**
 * A verified sending domain, written as the domain check would leave it (the sweep's stack has
 * no DNS server to verify against): templates and campaigns need one for their `from`.
 */
async function verifiedDomain(
  client: pg.Client,
  { projectId, encryptionKey }: { projectId: string; encryptionKey: string },
): Promise<{ id: string; name: string }> {
  dkim ??= (() => {
    const pair = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'der' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    return { publicKey: pair.publicKey.toString('base64'), privateKey: pair.privateKey };
  })();
  const id = randomUUID();
  const name = `sweep-${id.slice(0, 8)}.example.test`;
  await client.query(
    `INSERT INTO domains (id, project_id, domain, selector, dkim_public_key, dkim_private_key,
                          status, dkim_verified, spf_verified, dmarc_verified, verified_at,
                          last_checked_at, created_at)
     VALUES ($1, $2, $3, 'mwsweep', $4, $5, 'VERIFIED', true, true, true, now(), now(), now())`,
    [id, projectId, name, dkim.publicKey, encryptSecret(dkim.privateKey, encryptionKey)],
  );
  return { id, name };
}

/**
 * A user, a project, and one of each resource the API's paths name (a verified domain, a contact
 * with a data field, a tracked event, a template, a segment, a workflow with two linked steps, a
 * draft campaign), so that a path can name something that exists and a request reaches its
 * handler.
 */
export async function seededFixture({
  api,
  client,
  encryptionKey,
}: {
  api: Client;
  client: pg.Client;
  encryptionKey: string;
}): Promise<SweepFixture> {
  const { owner, project, sk } = await projectFixture(api);
  const domain = await verifiedDomain(client, { projectId: project.id, encryptionKey });
  const from = `news@${domain.name}`;
  const made = async (what: string, res: Promise<HttpResponse>): Promise<string> => {
    const answer = await res;
    if (answer.status >= 300) throw new Error(`Seeding ${what}: ${answer.status} ${answer.text}`);
    const id = (answer.body.id ?? answer.body.data?.id) as string | undefined;
    if (!id) throw new Error(`Seeding ${what}: no id in ${answer.text}`);
    return id;
  };
  const contact = await made(
    'a contact',
    api.post('/contacts', { ...sk, body: { email: 'seed@example.com', data: { plan: 'pro' } } }),
  );
  const tracked = await api.post('/v1/track', {
    ...sk,
    body: { email: 'seed@example.com', event: 'signup', data: { source: 'sweep' } },
  });
  if (tracked.status >= 300) throw new Error(`Seeding an event: ${tracked.text}`);
  const template = await made(
    'a template',
    api.post('/templates', {
      ...sk,
      body: { name: 'Seed', subject: 'Hi', body: '<p>Hi {{ email }}</p>', from },
    }),
  );
  const segment = await made(
    'a segment',
    api.post('/segments', {
      ...sk,
      body: {
        name: 'Seed',
        filters: {
          operator: 'AND',
          conditions: [{ field: 'email', operator: 'contains', value: '@' }],
        },
      },
    }),
  );
  const workflow = await made(
    'a workflow',
    api.post('/workflows', { ...sk, body: { name: 'Seed', triggerEvent: 'never-tracked' } }),
  );
  const step = await made(
    'a step',
    api.post(`/workflows/${workflow}/steps`, {
      ...sk,
      body: { type: 'DELAY', name: 'wait', config: { amount: 1, unit: 'days' } },
    }),
  );
  const exit = await made(
    'a second step',
    api.post(`/workflows/${workflow}/steps`, {
      ...sk,
      body: { type: 'EXIT', name: 'done', config: {} },
    }),
  );
  const transition = await made(
    'a transition',
    api.post(`/workflows/${workflow}/transitions`, {
      ...sk,
      body: { fromStepId: step, toStepId: exit },
    }),
  );
  const campaign = await made(
    'a campaign',
    api.post('/campaigns', {
      ...sk,
      body: {
        name: 'Seed',
        subject: 'Hi',
        body: '<p>Hi</p>',
        from,
        audienceType: 'ALL',
      },
    }),
  );
  return {
    caller: {
      projectId: project.id,
      secretKey: project.secretKey,
      publicKey: project.publicKey,
      cookie: owner.cookie,
      sendingDomain: domain.name,
      resources: {
        contact,
        template,
        segment,
        workflow,
        step,
        transition,
        campaign,
        user: owner.id,
        field: 'plan',
        event: 'signup',
        domain: domain.id,
      },
    },
    userId: owner.id,
  };
}

/** Which seeded resource a path parameter names, where the fixture has one. */
export function resourceOf(path: string, param: string): ResourceName | undefined {
  const collection = /^\/([a-z-]+)/.exec(path)?.[1];
  if (param === 'stepId') return 'step';
  if (param === 'transitionId') return 'transition';
  if (param === 'contactId') return 'contact';
  if (param === 'userId') return 'user';
  if (param === 'field') return 'field';
  if (param === 'eventName') return 'event';
  if (param !== 'id') return undefined;
  const byCollection: Record<string, ResourceName> = {
    contacts: 'contact',
    segments: 'segment',
    workflows: 'workflow',
    campaigns: 'campaign',
    templates: 'template',
    domains: 'domain',
  };
  return collection ? byCollection[collection] : undefined;
}
