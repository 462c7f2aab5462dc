import crypto from 'node:crypto';
import { sha256Hex } from '../lib/ids.js';

/** 32 random bytes in base64url: 43 chars, 256 bits (docs/api-spec.md §4). */
function secret(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function newApiKeyToken(): string {
  return `sk_${secret()}`;
}

export function newSessionToken(): string {
  return `pst_${secret()}`;
}

/**
 * Tokens are looked up by their SHA-256: the hash is the index, so the comparison happens
 * inside SQLite on a value an attacker cannot steer byte by byte (no timing oracle on the token).
 */
export function hashToken(token: string): string {
  return sha256Hex(token);
}

export const API_KEY_PATTERN = /^sk_[A-Za-z0-9_-]{43,}$/;
