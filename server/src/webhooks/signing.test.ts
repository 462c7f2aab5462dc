import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newWebhookSecret, signWebhook, webhookHeaders } from './signing.js';

describe('Standard Webhooks signing', () => {
  it("reproduces the specification's published test vector", () => {
    const signature = signWebhook(
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'msg_p5jXN8AQM9LWM0D4loKWxJek',
      1614265330,
      '{"test": 2432232314}',
    );
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('agrees with the reference library on the vector (its sign) and on fresh secrets (its verify)', () => {
    const reference = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    expect(reference.sign('msg_p5jXN8AQM9LWM0D4loKWxJek', new Date(1614265330 * 1000), '{"test": 2432232314}')).toBe(
      signWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    );

    const secret = newWebhookSecret();
    const body = JSON.stringify({ event: 'message.received', timestamp: new Date().toISOString(), data: { message: 'héllo ✓' } });
    const headers = webhookHeaders(secret, 'msg_abc', Date.now(), body);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    // A changed byte, another secret or another id fails verification.
    expect(() => new Webhook(secret).verify(body.replace('héllo', 'hello'), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, 'webhook-id': 'msg_other' })).toThrow();
  });

  it('makes whsec_ secrets of 32 random bytes, different every time', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('sends the Standard Webhooks headers with the timestamp in seconds', () => {
    const h = webhookHeaders(newWebhookSecret(), 'msg_1', 1_700_000_000_999, '{}');
    expect(h['webhook-id']).toBe('msg_1');
    expect(h['webhook-timestamp']).toBe('1700000000');
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(h['content-type']).toBe('application/json');
  });
});
