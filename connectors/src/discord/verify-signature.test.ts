import { describe, expect, it } from 'vitest';
import { createDiscordTestKeys, signDiscordRequest } from '../test-support/discord-interactions.js';
import { checkDiscordSignature, loadDiscordPublicKey } from './verify-signature.js';

describe('discord request signatures', () => {
  const keys = createDiscordTestKeys();
  const publicKey = loadDiscordPublicKey(keys.publicKeyHex);
  const now = 1_700_000_000;
  const body = '{"type":1}';
  const signed = signDiscordRequest(keys.privateKey, body, now);
  const check = (overrides: Partial<Parameters<typeof checkDiscordSignature>[0]>) =>
    checkDiscordSignature({
      publicKey,
      signature: signed['x-signature-ed25519'],
      timestamp: signed['x-signature-timestamp'],
      body: Buffer.from(body),
      nowSeconds: now,
      ...overrides,
    });

  it('accepts a genuine request within five minutes either way', () => {
    expect(check({})).toBe('valid');
    expect(check({ nowSeconds: now + 300 })).toBe('valid');
    expect(check({ nowSeconds: now - 300 })).toBe('valid');
  });

  it('rejects a changed body, a changed timestamp, a foreign key and garbage', () => {
    expect(check({ body: Buffer.from('{"type":2}') })).toBe('invalid');
    expect(check({ timestamp: String(now + 1) })).toBe('invalid');
    expect(check({ publicKey: loadDiscordPublicKey(createDiscordTestKeys().publicKeyHex) })).toBe('invalid');
    expect(check({ signature: 'zz' })).toBe('invalid');
    expect(check({ signature: undefined })).toBe('missing');
  });

  it('rejects a genuine but old request (replay)', () => {
    expect(check({ nowSeconds: now + 301 })).toBe('stale');
  });

  it('refuses a malformed public key at start-up', () => {
    expect(() => loadDiscordPublicKey('not-hex')).toThrow(/64 hex/);
  });
});
