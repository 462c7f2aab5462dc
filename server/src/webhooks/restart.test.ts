import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, killGroup, startMain, type Running } from '../../test/main-process.js';
import { startReceiver, type Receiver } from '../../test/webhook-receiver.js';

const running: Running[] = [];
let receiver: Receiver | null = null;
afterEach(async () => {
  for (const r of running.splice(0)) killGroup(r.child, 'SIGKILL');
  await receiver?.close();
  receiver = null;
});

/** The real server (`npm start`) on a fresh database file, with the demo's all-permission key. */
async function boot(env: Record<string, string>) {
  const srv = await startMain(env);
  running.push(srv);
  const key = /Bearer (sk_[A-Za-z0-9_-]+)/.exec(srv.output())?.[1] as string;
  const assistantId = /integrations\/(asst_[A-Za-z0-9]+)\/chat/.exec(srv.output())?.[1] as string;
  const base = `http://127.0.0.1:${env.PORT}`;
  const call = async (method: string, p: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as any };
  };
  return { srv, key, assistantId, call };
}

async function crash(srv: Running): Promise<void> {
  killGroup(srv.child, 'SIGKILL');
  await srv.exited;
  await new Promise((r) => setTimeout(r, 200)); // the group's last member leaves the port
}

async function newEnv() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parley-webhook-crash-'));
  // No demo traffic: its conversations would raise events for the endpoint these tests count.
  return {
    PORT: String(await freePort()),
    DATABASE_PATH: path.join(dir, 'parley.db'),
    WEBHOOK_ALLOW_PRIVATE: 'true',
    DEMO_TRAFFIC_CONVERSATIONS: '0',
  };
}

describe('webhook outbox across kill -9', () => {
  it('a crash in the middle of a retry schedule loses nothing: after restart the retry goes out on time, then everything behind it, in order', async () => {
    const at: number[] = [];
    receiver = await startReceiver((_r, i) => {
      at.push(Date.now());
      return i === 0 ? 500 : 200;
    });
    const env = await newEnv();
    const first = await boot(env);
    const hook = await first.call('POST', '/v1/webhooks', { url: receiver.url, events: ['*'] });
    expect(hook.status).toBe(201);
    const chats = await Promise.all(
      ['a', 'b', 'c'].map((s) =>
        first.call('POST', `/v1/integrations/${first.assistantId}/chat`, {
          message: 'How do I add the chat widget?',
          sessionId: `crash-${s}`,
        }),
      ),
    );
    expect(chats.every((c) => c.status === 200)).toBe(true);
    await receiver.waitFor((all) => all.length === 1);
    // The head failed and waits 5 s for its retry; the 17 events behind it wait for the head.
    let log = await first.call('GET', `/v1/webhooks/${hook.body.data.id}/deliveries`);
    for (let i = 0; i < 100 && !log.body.data.length; i++) {
      // the outcome is recorded a moment after the response
      await new Promise((r) => setTimeout(r, 20));
      log = await first.call('GET', `/v1/webhooks/${hook.body.data.id}/deliveries`);
    }
    expect(log.body.data[0]).toMatchObject({ attempt: 1, status: 'failed', responseCode: 500 });
    expect(log.body.data[0].nextRetryAt).not.toBeNull();
    await crash(first.srv);
    expect(receiver.received).toHaveLength(1);

    const second = await boot(env);
    const all = await receiver.waitFor((r) => new Set(r.map((x) => x.webhookId)).size === 18, 20_000);
    await new Promise((r) => setTimeout(r, 500)); // room for a duplicate to show up, if there were one
    const ids = all.map((r) => r.webhookId);
    expect(ids[1]).toBe(ids[0]); // the retry, same webhook-id
    expect((at[1] as number) - (at[0] as number)).toBeGreaterThanOrEqual(4_900); // not before its time
    expect(all).toHaveLength(19); // each event once, plus the one retry: nothing lost, nothing doubled
    const byEvent = (name: string) => all.slice(1).filter((r) => r.json.event === name).length;
    expect([
      byEvent('conversation.started'),
      byEvent('message.received'),
      byEvent('message.sent'),
      byEvent('conversation.message.created'),
    ]).toEqual([3, 3, 3, 6]);
    const times = all.slice(1).map((r) => r.json.timestamp);
    expect([...times].sort()).toEqual(times);
    const verifier = new Webhook(hook.body.data.secret);
    for (const r of all)
      verifier.verify(r.body, { 'webhook-id': r.webhookId, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature });

    const after = await second.call('GET', `/v1/webhooks/${hook.body.data.id}/deliveries?limit=100`);
    expect(after.body.pagination.total).toBe(19);
    expect(after.body.data.at(-1)).toMatchObject({ webhookId: ids[0], attempt: 1, status: 'failed' });
    expect(after.body.data.at(-2)).toMatchObject({ webhookId: ids[0], attempt: 2, status: 'succeeded' });
  }, 60_000);

  it('a crash while an attempt is in flight sends that delivery again after restart (at-least-once, same webhook-id)', async () => {
    receiver = await startReceiver((_r, i) => (i === 0 ? 'hang' : 200));
    const env = await newEnv();
    const first = await boot(env);
    const hook = await first.call('POST', '/v1/webhooks', { url: receiver.url, events: ['message.received', 'message.sent'] });
    await first.call('POST', `/v1/integrations/${first.assistantId}/chat`, { message: 'Hello', sessionId: 'inflight' });
    await receiver.waitFor((all) => all.length === 1);
    await crash(first.srv);

    await boot(env);
    const all = await receiver.waitFor((r) => r.length === 3, 20_000);
    expect(all.map((r) => r.json.event)).toEqual(['message.received', 'message.received', 'message.sent']);
    expect(all[1]?.webhookId).toBe(all[0]?.webhookId);
    expect(hook.status).toBe(201);
  }, 60_000);
});
