import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import {
  newSigningSecret,
  signedHeaders,
  signingKey,
} from '../../domain/webhooks/webhook-signing.js';

const body = JSON.stringify({ type: 'order.paid', data: { name: 'Zoë ✓', total: 3 } });

describe('webhook signing (node crypto, verified by the standardwebhooks package)', () => {
  it('signs what Standard Webhooks verifies, byte for byte its own signature', () => {
    const secret = newSigningSecret();
    const at = new Date();
    const headers = signedHeaders({ id: 'msg_1', body, keys: [signingKey(secret)], at });
    expect(new Webhook(secret).verify(body, { ...headers })).toEqual(JSON.parse(body));
    expect(headers['webhook-signature']).toBe(new Webhook(secret).sign('msg_1', at, body));
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(at.getTime() / 1000)));
  });

  it('during a rotation both secrets verify, and no other', () => {
    const current = newSigningSecret();
    const previous = newSigningSecret();
    const headers = signedHeaders({
      id: 'msg_2',
      body,
      keys: [signingKey(current), signingKey(previous)],
      at: new Date(),
    });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(current).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(previous).verify(body, { ...headers })).not.toThrow();
    expect(() => new Webhook(newSigningSecret()).verify(body, { ...headers })).toThrow();
  });

  it('a changed body or id does not verify', () => {
    const secret = newSigningSecret();
    const headers = signedHeaders({
      id: 'msg_3',
      body,
      keys: [signingKey(secret)],
      at: new Date(),
    });
    expect(() => new Webhook(secret).verify(`${body} `, { ...headers })).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_4' })).toThrow();
  });
});
