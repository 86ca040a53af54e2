import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billing,
  postStripeWebhook,
  signedStripeEvent,
  startBillingStack,
  type BillingStack,
} from '../helpers/billing-stack.js';
import { createCampaign, waitForCampaign } from '../helpers/campaigns.js';
import { uniqueDomain, verifiedDomain } from '../helpers/domains.js';
import { signUp, uniqueEmail } from '../helpers/factories.js';
import { projectFixture } from '../helpers/project-fixture.js';
import type { TestStack } from '../helpers/stack.js';
import { buildWorkflow } from '../helpers/workflows.js';

// Stripe's signed webhooks: the plan they keep, each event once, and the subscription's place in
// the setup-state.

let billed: BillingStack;
let stack: TestStack;
beforeAll(async () => {
  billed = await startBillingStack();
  ({ stack } = billed);
});
afterAll(async () => {
  await billed?.stop();
});

const signedEvent = (
  type: string,
  object: Record<string, unknown>,
  options?: { timestamp?: number },
) => signedStripeEvent(billed, type, object, options);
const postWebhook = (payload: string, signature: string) =>
  postStripeWebhook(stack, payload, signature);

describe('billing with Stripe (stripe-mock): webhooks', () => {
  it('keeps the plan from signed webhooks, each event once; a bad or stale signature is 400', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const plan = async () =>
      (await stack.api.get(billing(project.id, 'billing-consumption'), sk)).body;

    const bad = signedEvent('checkout.session.completed', { client_reference_id: project.id });
    expect(
      (
        await postWebhook(
          bad.payload,
          bad.signature.replace(/v1=(\w)/, (_, c: string) => `v1=${c === '0' ? '1' : '0'}`),
        )
      ).status,
    ).toBe(400);
    const stale = signedEvent(
      'checkout.session.completed',
      { client_reference_id: project.id },
      { timestamp: Math.floor(Date.now() / 1000) - 3600 },
    );
    expect((await postWebhook(stale.payload, stale.signature)).status).toBe(400);
    expect(await postWebhook(stale.payload, '')).toHaveProperty('status', 400);
    expect((await plan()).plan).toBe('FREE');

    const completed = signedEvent('checkout.session.completed', {
      object: 'checkout.session',
      client_reference_id: project.id,
      customer: `cus_${randomUUID().slice(0, 12)}`,
      subscription: 'sub_123',
    });
    const first = await postWebhook(completed.payload, completed.signature);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true, applied: true });
    expect(await plan()).toMatchObject({ plan: 'PAID', subscriptionStatus: 'active' });

    // Stripe redelivers: the same event id changes nothing, even after a later change.
    const deleted = signedEvent('customer.subscription.deleted', {
      object: 'subscription',
      id: 'sub_123',
      status: 'canceled',
      metadata: { projectId: project.id },
    });
    expect((await postWebhook(deleted.payload, deleted.signature)).status).toBe(200);
    expect(await plan()).toMatchObject({ plan: 'FREE', subscriptionStatus: 'canceled' });
    const again = await postWebhook(completed.payload, completed.signature);
    expect(await again.json()).toEqual({ received: true, applied: false });
    expect(await plan()).toMatchObject({ plan: 'FREE' });
  });

  it('walks the setup-state through every onboarding step, the subscription included', async () => {
    const { owner, project, sk } = await projectFixture(stack.api);
    const state = async () =>
      (await stack.api.get(`/projects/${project.id}/setup-state`, sk)).body as {
        steps: Record<string, boolean>;
        completed: boolean;
      };
    expect(await state()).toEqual({
      projectId: project.id,
      steps: {
        ownerEmailVerified: false,
        teamInvited: false,
        domainVerified: false,
        templateCreated: false,
        contactAdded: false,
        emailSent: false,
        workflowEnabled: false,
        campaignSent: false,
        billingSubscribed: false,
      },
      completed: false,
    });

    const verification = await stack.smtp.waitFor((m) => m.to.includes(owner.email));
    const token = /\/auth\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(
      verification.parsed.text ?? '',
    )?.[1];
    expect((await stack.api.post('/auth/verify-email', { body: { token } })).status).toBe(200);
    const member = await signUp(stack.api, 'mate');
    await stack.api.post(`/projects/${project.id}/members`, {
      cookie: owner.cookie,
      body: { email: member.email, role: 'MEMBER' },
    });
    const { domain } = await verifiedDomain(stack.api, billed.dns, sk.key, uniqueDomain('setup'));
    const template = await stack.api.post('/templates', {
      ...sk,
      body: {
        name: 'T',
        subject: 'S',
        body: '<p>b</p>',
        type: 'TRANSACTIONAL',
        from: `a@${domain}`,
      },
    });
    expect(template.status, template.text).toBe(201);
    const to = uniqueEmail('first');
    const sent = await stack.api.post('/v1/send', {
      ...sk,
      body: { to, subject: 'First', body: '<p>b</p>', from: `a@${domain}` },
    });
    expect(sent.status, sent.text).toBe(200);
    await stack.smtp.waitFor((m) => m.to.includes(to.toLowerCase()));
    await buildWorkflow(stack.api, sk, {
      steps: { note: { type: 'UPDATE_CONTACT', config: { data: { welcomed: true } } } },
    });
    const campaign = await createCampaign(stack.api, sk, {
      name: 'First',
      subject: 'Hello',
      body: '<p>Hi</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    expect((await stack.api.post(`/campaigns/${campaign.id}/send`, sk)).status).toBe(200);
    await waitForCampaign(stack.api, sk, campaign.id);
    const before = await state();
    expect(before.steps.billingSubscribed).toBe(false);
    expect(before.completed).toBe(false);

    const completed = signedEvent('checkout.session.completed', {
      client_reference_id: project.id,
      customer: `cus_${randomUUID().slice(0, 12)}`,
    });
    expect((await postWebhook(completed.payload, completed.signature)).status).toBe(200);
    const after = await state();
    expect(Object.entries(after.steps).filter(([, done]) => !done)).toEqual([]);
    expect(after.completed).toBe(true);
  }, 120_000);
});
