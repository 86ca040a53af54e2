import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../runtime/embedded/free-port.js';
import { billing, startBillingStack, type BillingStack } from '../helpers/billing-stack.js';
import { withDatabase } from '../helpers/database.js';
import { createProject, signUp } from '../helpers/factories.js';
import { createClient } from '../helpers/http.js';
import { runEntryPoint } from '../helpers/processes.js';
import { projectFixture } from '../helpers/project-fixture.js';
import type { TestStack } from '../helpers/stack.js';

// The billing routes: who may use them, what they refuse, and what they answer with billing off.

let billed: BillingStack;
let stack: TestStack;
beforeAll(async () => {
  billed = await startBillingStack();
  ({ stack } = billed);
});
afterAll(async () => {
  await billed?.stop();
});

describe('billing with Stripe (stripe-mock): the billing routes', () => {
  it('opens checkout and portal sessions for an OWNER or ADMIN; a MEMBER gets 403', async () => {
    const owner = await signUp(stack.api, 'owner');
    const member = await signUp(stack.api, 'member');
    const project = await createProject(stack.api, owner);
    const added = await stack.api.post(`/projects/${project.id}/members`, {
      cookie: owner.cookie,
      body: { email: member.email, role: 'MEMBER' },
    });
    expect(added.status, added.text).toBe(201);

    const checkout = await stack.api.post(billing(project.id, 'checkout'), {
      cookie: owner.cookie,
    });
    expect(checkout.status, checkout.text).toBe(200);
    expect(checkout.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
    const portal = await stack.api.post(billing(project.id, 'billing-portal'), {
      cookie: owner.cookie,
    });
    expect(portal.status, portal.text).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\//);
    // The customer is created once and kept.
    const customers = await withDatabase(
      async (db) =>
        (
          await db.query('SELECT stripe_customer_id FROM project_billing WHERE project_id = $1', [
            project.id,
          ])
        ).rows,
    );
    expect(customers).toHaveLength(1);
    expect(customers[0].stripe_customer_id).toMatch(/^cus_/);

    for (const path of ['checkout', 'billing-portal']) {
      const refused = await stack.api.post(billing(project.id, path), { cookie: member.cookie });
      expect(refused.status, refused.text).toBe(403);
    }
    const putByMember = await stack.api.put(billing(project.id, 'billing-limits'), {
      cookie: member.cookie,
      body: { transactional: 1 },
    });
    expect(putByMember.status).toBe(403);
    // A member may read them.
    expect(
      (await stack.api.get(billing(project.id, 'billing-limits'), { cookie: member.cookie }))
        .status,
    ).toBe(200);

    const invoices = await stack.api.get(billing(project.id, 'billing-invoices'), {
      cookie: owner.cookie,
    });
    expect(invoices.status, invoices.text).toBe(200);
    expect(invoices.body.length).toBeGreaterThan(0);
    expect(invoices.body[0]).toMatchObject({
      id: expect.stringMatching(/^in_/),
      currency: expect.any(String),
      amount: expect.any(Number),
    });
    expect((await stack.api.get('/config')).body.features.billing).toBe(true);
  });

  it('refuses bad caps with 422 and changes nothing', async () => {
    const { project, sk } = await projectFixture(stack.api);
    for (const body of [{ transactional: -1 }, { transactional: 1.5 }, { unknown: 3 }]) {
      const res = await stack.api.put(billing(project.id, 'billing-limits'), { ...sk, body });
      expect(res.status, res.text).toBe(422);
    }
    const caps = await stack.api.get(billing(project.id, 'billing-limits'), sk);
    expect(caps.body).toEqual({
      transactional: null,
      campaigns: null,
      workflows: null,
      inbound: null,
    });
    const other = await projectFixture(stack.api);
    expect((await stack.api.get(billing(project.id, 'billing-limits'), other.sk)).status).toBe(404);
  });

  it('answers a clear 400 on the Stripe routes when billing is off; caps still answer', async () => {
    const { project, sk } = await projectFixture(stack.api);
    const port = await freePort();
    const env = { ...stack.env, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}` };
    delete (env as Record<string, string | undefined>).STRIPE_SECRET_KEY;
    delete (env as Record<string, string | undefined>).INBOUND_SMTP_PORT; // the first API has it
    const api = runEntryPoint('runtime/api.ts', env);
    try {
      await api.waitForOutput(/"msg":"api listening"/, 90_000);
      const off = createClient(`http://127.0.0.1:${port}`);
      expect((await off.get('/config')).body.features.billing).toBe(false);
      for (const [method, path] of [
        ['post', 'checkout'],
        ['post', 'billing-portal'],
        ['get', 'billing-invoices'],
      ] as const) {
        const res = await off[method](billing(project.id, path), sk);
        expect(res.status, `${path}: ${res.text}`).toBe(400);
        expect(res.body.error.message).toMatch(/Billing is off/);
      }
      // Billing off is not usage off (billing-off.test.ts holds the caps to their edge).
      for (const path of ['billing-limits', 'billing-consumption']) {
        const res = await off.get(billing(project.id, path), sk);
        expect(res.status, `${path}: ${res.text}`).toBe(200);
      }
    } finally {
      await api.stop();
    }
  }, 120_000);
});
