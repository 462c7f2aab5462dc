import type dns from 'node:dns';
import { afterEach, describe, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';
import { createHttpClient, type HttpClient, type HttpClientOptions } from '../net/client.js';
import { postWebhook } from './delivery.js';
import { webhookUrlProblem } from './ssrf.js';

/** A fake DNS: answers from a table, or from a function for rebinding. */
function fakeDns(answer: (host: string) => string[]) {
  const calls: string[] = [];
  const resolve = (host: string, _o: dns.LookupAllOptions, cb: (err: NodeJS.ErrnoException | null, a: dns.LookupAddress[]) => void) => {
    calls.push(host);
    const list = answer(host);
    if (!list.length) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }), []);
    cb(
      null,
      list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  };
  return { resolve, calls };
}

describe('webhook URL check when saved', () => {
  it.each([
    ['ftp://example.com/hook', 'http(s)'],
    ['file:///etc/passwd', 'http(s)'],
    ['not a url', 'absolute'],
    ['https://user:pw@example.com/hook', 'credentials'],
    ['http://localhost:8080/hook', 'localhost'],
    ['http://api.localhost/hook', 'localhost'],
    ['http://127.0.0.1/hook', 'loopback'],
    ['http://2130706433/hook', 'loopback'], // 127.0.0.1 as one decimal number
    ['http://0x7f.1/hook', 'loopback'],
    ['http://[::1]:3000/hook', 'loopback'],
    ['http://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['http://0.0.0.0:3000/', 'unspecified'],
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://10.0.0.5/hook', 'private'],
    ['http://[fe80::1]/hook', 'link-local'],
    ['http://224.0.0.1/hook', 'multicast'],
  ])('refuses %s', (url, why) => {
    expect(webhookUrlProblem(url, false)).toContain(why);
  });

  it('accepts public URLs, and private ones when WEBHOOK_ALLOW_PRIVATE=true', () => {
    expect(webhookUrlProblem('https://hooks.example.com/parley?x=1', false)).toBeNull();
    expect(webhookUrlProblem('http://93.184.216.34:8080/hook', false)).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:9999/hook', true)).toBeNull();
    expect(webhookUrlProblem('http://localhost/hook', true)).toBeNull();
    // Scheme and credentials are refused whatever the setting.
    expect(webhookUrlProblem('ftp://127.0.0.1/', true)).toContain('http(s)');
    expect(webhookUrlProblem('http://a:b@127.0.0.1/', true)).toContain('credentials');
  });
});

describe('delivery honours the guard when it connects', () => {
  let receiver: Receiver;
  afterEach(async () => {
    await receiver?.close();
  });

  const clients: HttpClient[] = [];
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
  });
  const post = (url: string, guard: NonNullable<HttpClientOptions['guard']>) => {
    const client = createHttpClient({ guard });
    clients.push(client);
    return postWebhook({ url, headers: { 'content-type': 'application/json' }, body: '{}', timeoutMs: 2_000, client });
  };

  it('a name resolving to loopback is refused at connect time, and reaches the receiver when allowed', async () => {
    receiver = await startReceiver();
    const dnsFake = fakeDns(() => ['127.0.0.1']);
    const url = `http://hooks.customer.example:${receiver.port}/hooks`;
    expect(webhookUrlProblem(url, false)).toBeNull(); // nothing to see when it is saved

    const refused = await post(url, { allowPrivate: false, resolve: dnsFake.resolve });
    expect(refused).toMatchObject({ ok: false, status: null });
    expect(refused.error).toBe(
      `hooks.customer.example resolves to 127.0.0.1, a loopback address: refused (set WEBHOOK_ALLOW_PRIVATE=true to allow)`,
    );
    expect(receiver.received).toHaveLength(0);

    const allowed = await post(url, { allowPrivate: true, resolve: dnsFake.resolve });
    expect(allowed).toMatchObject({ ok: true, status: 200, error: null });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]?.headers.host).toBe(`hooks.customer.example:${receiver.port}`);
  });

  it('an IP literal (which skips DNS) is checked too', async () => {
    receiver = await startReceiver();
    const never = {
      allowPrivate: false,
      resolve: () => {
        throw new Error('literals must not be looked up');
      },
    };
    const refused = await post(receiver.url, never);
    expect(refused.error).toContain('127.0.0.1, a loopback address');
    expect(receiver.received).toHaveLength(0);
    const mapped = await post(`http://[::ffff:127.0.0.1]:${receiver.port}/hooks`, never);
    expect(mapped.error).toContain('loopback');
  });
});
