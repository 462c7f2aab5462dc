import crypto from 'node:crypto';

/**
 * Standard Webhooks v1 (https://www.standardwebhooks.com): the secret is `whsec_` + base64 of
 * random bytes; a delivery is signed with HMAC-SHA256 over `id.timestamp.body`, keyed by the
 * base64-decoded secret, and sent as `v1,<base64 signature>`.
 */
const SECRET_PREFIX = 'whsec_';

export function newWebhookSecret(): string {
  return SECRET_PREFIX + crypto.randomBytes(32).toString('base64');
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}

export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = crypto.createHmac('sha256', secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one delivery attempt: a fresh timestamp and signature, the same id on every retry. */
export function webhookHeaders(secret: string, id: string, nowMs: number, body: string): Record<string, string> {
  const timestamp = Math.floor(nowMs / 1000);
  return {
    'content-type': 'application/json',
    'user-agent': 'Parley-Webhooks/1.0',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signWebhook(secret, id, timestamp, body),
  };
}
