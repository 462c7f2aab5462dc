import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_LOGIN, clientFor, startTestServer, type Server } from '../../e2e/support.js';
import type { ApiClient } from '../lib/api.js';
import { ALL_PERMISSIONS, createApiKeysModel, endOfDayIso, graceSeconds, parseIpList } from './api-keys.model.js';

// The API keys page model against a real Parley: the full key comes back once, works for chat,
// rotation keeps the old key alive for the grace period, revocation ends it.

let server: Server;
let client: ApiClient;

async function chat(key: string): Promise<number> {
  const res = await fetch(`${server.url}/v1/integrations/${server.assistantId}/chat`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ message: 'hello' }),
  });
  return res.status;
}

beforeAll(async () => {
  server = await startTestServer();
  const res = await fetch(`${server.url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(DEMO_LOGIN),
  });
  client = clientFor(server, ((await res.json()) as { data: { token: string } }).data.token);
});
afterAll(() => server?.close());

describe('api keys helpers', () => {
  it('parses IP lists, grace periods and expiry dates', () => {
    expect(parseIpList(' 203.0.113.4,10.0.0.0/8\n::1 ')).toEqual(['203.0.113.4', '10.0.0.0/8', '::1']);
    expect(graceSeconds('2', 'hours')).toBe(7200);
    expect(graceSeconds('30', 'seconds')).toBe(30);
    expect(graceSeconds('-1', 'hours')).toBeNaN();
    expect(endOfDayIso('2031-02-03')).toBe(new Date('2031-02-03T23:59:59').toISOString());
    expect(endOfDayIso('tomorrow')).toBeNull();
  });
});

describe('api keys model', () => {
  it('creates a key shown once, bound to an assistant, which chats; the list never has the key', async () => {
    const m = createApiKeysModel(client, ALL_PERMISSIONS);
    await m.load();
    expect(m.assistants.data.value?.some((a) => a.id === server.assistantId)).toBe(true);
    m.form.name.value = 'Backend';
    m.togglePermission('conversations:read', true);
    m.form.assistantId.value = server.assistantId;
    m.form.allowedIps.value = '127.0.0.1, ::1';
    m.form.perMinute.value = '30';
    m.form.expiresOn.value = '2099-01-01';
    const created = await m.create();
    expect(created).toMatchObject({
      name: 'Backend',
      permissions: ['chat', 'conversations:read'],
      assistantId: server.assistantId,
      allowedIps: ['127.0.0.1', '::1'],
      rateLimit: { perMinute: 30, perDay: null },
    });
    expect(created!.key).toMatch(/^sk_/);
    expect(m.revealed.value?.key).toBe(created!.key);
    expect(m.form.name.value).toBe('');
    expect(await chat(created!.key)).toBe(200);
    const listed = m.keys.data.value!.items.find((k) => k.id === created!.id)!;
    expect(listed.last4).toBe(created!.key.slice(-4));
    expect(JSON.stringify(m.keys.data.value)).not.toContain(created!.key);
    m.dismissRevealed();
    expect(m.revealed.value).toBeNull();
  });

  it('keeps the form and shows the server message when a limit is above the plan', async () => {
    const m = createApiKeysModel(client, ALL_PERMISSIONS);
    m.form.name.value = 'Greedy';
    m.form.perMinute.value = '100000';
    expect(await m.create()).toBeUndefined();
    expect(m.form.submit.error.value?.message).toMatch(/may only lower/);
    expect(m.form.name.value).toBe('Greedy');
    expect(m.revealed.value).toBeNull();
  });

  it('a permission the creator lacks is refused by the server', async () => {
    // A key that may manage keys but not webhooks tries to grant webhooks:write.
    const limited = await client.post<{ key: string }>('/api-keys', { name: 'limited', permissions: ['api_keys:write', 'chat'] });
    const m = createApiKeysModel(clientFor(server, limited.key), ['api_keys:write', 'chat']);
    m.form.name.value = 'Escalate';
    m.togglePermission('webhooks:write', true);
    expect(await m.create()).toBeUndefined();
    expect(m.form.submit.error.value?.kind).toBe('forbidden');
    expect(m.form.submit.error.value?.message).toMatch(/webhooks:write/);
  });

  it('rotates with a grace period: both keys work, the new one is shown once; revoke ends it', async () => {
    const m = createApiKeysModel(client, ALL_PERMISSIONS);
    m.form.name.value = 'Rotating';
    const old = (await m.create())!;
    m.dismissRevealed();
    m.rotate.target.value = m.keys.data.value!.items.find((k) => k.id === old.id)!;
    m.rotate.amount.value = '1';
    m.rotate.unit.value = 'hours';
    const rotated = await m.rotateKey();
    expect(rotated!.key).not.toBe(old.key);
    expect(m.revealed.value?.key).toBe(rotated!.key);
    expect(m.rotate.target.value).toBeNull();
    expect(await chat(old.key)).toBe(200);
    expect(await chat(rotated!.key)).toBe(200);
    const oldListed = m.keys.data.value!.items.find((k) => k.id === old.id)!;
    expect(Date.parse(oldListed.expiresAt!) - Date.now()).toBeGreaterThan(3500_000);

    m.revoke.target.value = m.keys.data.value!.items.find((k) => k.id === rotated!.id)!;
    expect(await m.revokeKey()).toBe(true);
    expect(await chat(rotated!.key)).toBe(401);
    expect(m.keys.data.value!.items.some((k) => k.id === rotated!.id)).toBe(false);
  });

  it('a grace period over 7 days is refused with the field named', async () => {
    const m = createApiKeysModel(client, ALL_PERMISSIONS);
    await m.load();
    m.rotate.target.value = m.keys.data.value!.items[0]!;
    m.rotate.amount.value = '169';
    m.rotate.unit.value = 'hours';
    expect(await m.rotateKey()).toBeUndefined();
    expect(m.rotate.submit.fieldError('graceSeconds')).toBeTruthy();
    expect(m.rotate.target.value).not.toBeNull();
  });
});
