import dns from 'node:dns';
import net from 'node:net';
import { assertLiteralHostAllowed, bareHost, blockedAddressReason, guardedLookup, webhookUrlProblem, type ConnectLookup } from '../../webhooks/ssrf.js';

/**
 * Where an assistant's `model.baseUrl` may point. Any registrant can save an assistant, and the
 * chat path POSTs to its base URL from inside the operator's network, so a model base URL goes
 * through the same private-address guard as webhooks and document fetches (webhooks/ssrf.ts):
 * refused when saved (a literal private address, localhost, or a name resolving to one) and
 * again when connecting (the name is resolved by a guarded `lookup`: DNS rebinding).
 *
 * Exempt: the operator's own OPENAI_BASE_URL/ANTHROPIC_BASE_URL (trusted, they chose them),
 * every URL under MODEL_BASE_URL_ALLOWLIST (a private Ollama/vLLM), and everything when
 * MODEL_ALLOW_PRIVATE=true.
 */

export type LookupAll = (hostname: string, options: dns.LookupAllOptions, callback: (err: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

export interface ModelUrlPolicy {
  /** MODEL_ALLOW_PRIVATE: no guard at all (a single-tenant server next to its models). */
  allowPrivate: boolean;
  /** MODEL_BASE_URL_ALLOWLIST: base URLs (and what is under them) allowed even when private. */
  allowlist: readonly string[];
  /** The operator's own provider base URLs: trusted like the allowlist. */
  trusted: readonly string[];
  /** Name resolution (tests: a fake DNS); the guard judges its answers. */
  resolve?: LookupAll | undefined;
  /** How long the save-time resolution may take before the name is let through to the connect-time guard. */
  resolveTimeoutMs?: number | undefined;
}

export interface ModelUrlGuard {
  /** When an assistant is saved: why this base URL is refused, or null. */
  problem(baseUrl: string): Promise<string | null>;
  /**
   * When connecting: the `lookup` that refuses private answers, or null when this base URL is
   * exempt. Throws BlockedAddressError for a literal private host (literals skip `lookup`).
   */
  connectLookup(baseUrl: string): ConnectLookup | null;
}

const SETTING_HINT = 'set MODEL_ALLOW_PRIVATE=true or list it in MODEL_BASE_URL_ALLOWLIST to allow';

/** The guard's messages name the webhook setting; model base URLs have their own. */
export const modelGuardMessage = (message: string): string => message.replace(/set WEBHOOK_ALLOW_PRIVATE=true to allow/g, SETTING_HINT);

/** `https://host:port/path` without a trailing slash, or null when not a URL. */
function normalized(raw: string): { origin: string; path: string } | null {
  try {
    const u = new URL(raw);
    return { origin: u.origin, path: u.pathname.replace(/\/+$/, '') };
  } catch {
    return null;
  }
}

/** `base` is `entry` or lies under it (same origin, path at or below the entry's path). */
function isUnder(base: string, entry: string): boolean {
  const b = normalized(base);
  const e = normalized(entry);
  if (!b || !e || b.origin !== e.origin) return false;
  return b.path === e.path || b.path.startsWith(`${e.path}/`);
}

/** MODEL_BASE_URL_ALLOWLIST's comma-separated URLs. */
export function parseBaseUrlList(raw: string | undefined): string[] {
  return (raw ?? '').split(',').map((s) => s.trim()).filter(Boolean);
}

export function createModelUrlGuard(policy: ModelUrlPolicy): ModelUrlGuard {
  const resolve: LookupAll = policy.resolve ?? ((host, o, cb) => dns.lookup(host, o, cb));
  const lookup = guardedLookup({ allowPrivate: false, resolve });
  const timeoutMs = policy.resolveTimeoutMs ?? 3_000;
  const exempt = (baseUrl: string): boolean =>
    policy.allowPrivate || policy.trusted.some((t) => isUnder(baseUrl, t)) || policy.allowlist.some((a) => isUnder(baseUrl, a));

  /** Addresses a name resolves to now; [] when it does not resolve (in time): the connect-time guard decides then. */
  const addressesOf = (host: string): Promise<dns.LookupAddress[]> => new Promise((done) => {
    const timer = setTimeout(() => done([]), timeoutMs);
    timer.unref();
    resolve(host, { all: true }, (err, addresses) => {
      clearTimeout(timer);
      done(err ? [] : addresses);
    });
  });

  return {
    async problem(baseUrl) {
      if (exempt(baseUrl)) return null;
      const shape = webhookUrlProblem(baseUrl, false);
      if (shape) return modelGuardMessage(shape);
      const host = bareHost(new URL(baseUrl).hostname);
      if (net.isIP(host)) return null; // judged above
      for (const a of await addressesOf(host)) {
        const reason = blockedAddressReason(a.address);
        if (reason) return `must not point at a name that resolves to a ${reason} address (${host} → ${a.address}; ${SETTING_HINT})`;
      }
      return null;
    },
    connectLookup(baseUrl) {
      if (exempt(baseUrl)) return null;
      assertLiteralHostAllowed(new URL(baseUrl).hostname, false);
      return lookup;
    },
  };
}
