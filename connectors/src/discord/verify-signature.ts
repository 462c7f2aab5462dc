import { createPublicKey, verify, type KeyObject } from 'node:crypto';

/** DER header of an Ed25519 SubjectPublicKeyInfo; Discord hands out the raw 32-byte key as hex. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** Discord's own libraries accept requests up to 5 minutes off; older ones are replays. */
export const MAX_TIMESTAMP_SKEW_SECONDS = 300;

export function loadDiscordPublicKey(hex: string): KeyObject {
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error('DISCORD_PUBLIC_KEY must be 64 hex characters (the "Public Key" of the application)');
  return createPublicKey({ key: Buffer.concat([ED25519_SPKI_PREFIX, Buffer.from(hex, 'hex')]), format: 'der', type: 'spki' });
}

export type SignatureCheck = 'valid' | 'missing' | 'invalid' | 'stale';

/**
 * Discord signs `timestamp + rawBody` with the application's Ed25519 key. Both the signature and
 * the freshness of the timestamp are checked: a valid signature alone would let anyone who once
 * saw a request replay it.
 */
export function checkDiscordSignature(input: {
  publicKey: KeyObject;
  signature: string | undefined;
  timestamp: string | undefined;
  body: Buffer;
  nowSeconds: number;
  maxSkewSeconds?: number;
}): SignatureCheck {
  const { signature, timestamp } = input;
  if (!signature || !timestamp) return 'missing';
  if (!/^[0-9a-f]{128}$/i.test(signature) || !/^\d{1,12}$/.test(timestamp)) return 'invalid';
  const ok = verify(null, Buffer.concat([Buffer.from(timestamp, 'utf8'), input.body]), input.publicKey, Buffer.from(signature, 'hex'));
  if (!ok) return 'invalid';
  if (Math.abs(input.nowSeconds - Number(timestamp)) > (input.maxSkewSeconds ?? MAX_TIMESTAMP_SKEW_SECONDS)) return 'stale';
  return 'valid';
}
