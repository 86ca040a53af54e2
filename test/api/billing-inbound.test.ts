import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  billing,
  billingSender,
  startBillingStack,
  type BillingStack,
} from '../helpers/billing-stack.js';
import type { TestStack } from '../helpers/stack.js';

// The inbound cap: mail past it is refused at DATA.

let billed: BillingStack;
let stack: TestStack;
beforeAll(async () => {
  billed = await startBillingStack();
  ({ stack } = billed);
});
afterAll(async () => {
  await billed?.stop();
});

const sender = () => billingSender(billed);

describe('billing with Stripe (stripe-mock): the inbound cap', () => {
  it('refuses inbound mail past the inbound cap at DATA, and counts what it kept', async () => {
    const { project, sk, domain } = await sender();
    await stack.api.put(billing(project.id, 'billing-limits'), { ...sk, body: { inbound: 1 } });
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: billed.inboundPort,
      secure: false,
      ignoreTLS: true,
    });
    try {
      const mail = (subject: string) =>
        transport.sendMail({ from: 'carol@example.com', to: `help@${domain}`, subject, text: 'x' });
      expect((await mail('First')).accepted).toHaveLength(1);
      await expect(mail('Second')).rejects.toMatchObject({ responseCode: 550 });
    } finally {
      transport.close();
    }
    const consumption = await stack.api.get(billing(project.id, 'billing-consumption'), sk);
    expect(consumption.body.categories.inbound).toMatchObject({
      used: 1,
      cap: 1,
      warning: { used: 1, cap: 1 },
    });
  });
});
