import dns from 'node:dns';
import net from 'node:net';
import { bareHost, blockedAddressReason, describeUrlProblem, outboundUrlProblem, type LookupAll } from '../../net/address-guard.js';
import { createHttpClient, type HttpClient } from '../../net/client.js';

/**
 * Where an assistant's `model.baseUrl` may point. Any registrant can save an assistant, and the
 * chat path POSTs to its base URL from inside the operator's network, so a model base URL goes
 * through the same private-address guard as webhooks and document fetches (net/address-guard.ts):
 * refused when saved (a literal private address, localhost, or a name resolving to one) and
 * again when connecting (the name is resolved by a guarded `lookup`: DNS rebinding).
 *
 * Exempt: the operator's own OPENAI_BASE_URL/ANTHROPIC_BASE_URL (trusted, they chose them),
 * every URL under MODEL_BASE_URL_ALLOWLIST (a private Ollama/vLLM), and everything when
 * MODEL_ALLOW_PRIVATE=true.
 */

export type { LookupAll };

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
  /** When connecting: whether connections to this base URL go through the address guard (false: exempt). */
  guards(baseUrl: string): boolean;
  /** The address guard of those connections (net/client's `guard`): private answers and literals refused. */
  readonly connectGuard: { allowPrivate: false; resolve: LookupAll };
}

/** What a refusal tells the operator: the settings that would allow the address. */
export const MODEL_PRIVATE_HINT = 'set MODEL_ALLOW_PRIVATE=true or list it in MODEL_BASE_URL_ALLOWLIST to allow';
const SETTING_HINT = MODEL_PRIVATE_HINT;

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

export function createModelUrlGuard(policy: ModelUrlPolicy): ModelUrlGuard {
  const resolve: LookupAll = policy.resolve ?? ((host, o, cb) => dns.lookup(host, o, cb));
  const timeoutMs = policy.resolveTimeoutMs ?? 3_000;
  const exempt = (baseUrl: string): boolean =>
    policy.allowPrivate || policy.trusted.some((t) => isUnder(baseUrl, t)) || policy.allowlist.some((a) => isUnder(baseUrl, a));

  /** Addresses a name resolves to now; [] when it does not resolve (in time): the connect-time guard decides then. */
  const addressesOf = (host: string): Promise<dns.LookupAddress[]> =>
    new Promise((done) => {
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
      const shape = outboundUrlProblem(baseUrl, false);
      if (shape) return describeUrlProblem(shape, SETTING_HINT);
      const host = bareHost(new URL(baseUrl).hostname);
      if (net.isIP(host)) return null; // judged above
      for (const a of await addressesOf(host)) {
        const reason = blockedAddressReason(a.address);
        if (reason) return `must not point at a name that resolves to a ${reason} address (${host} → ${a.address}; ${SETTING_HINT})`;
      }
      return null;
    },
    guards: (baseUrl) => !exempt(baseUrl),
    connectGuard: { allowPrivate: false, resolve },
  };
}

/**
 * The HTTP clients of one provider: a guarded pool for tenants' base URLs and an open one for
 * the exempt (the operator's own, the allowlist), so a guarded request never reuses a socket an
 * unguarded one opened. Every wait, connecting included, is bounded by `timeoutMs`.
 */
export function createModelClients(guard: ModelUrlGuard, timeoutMs: number): (baseUrl: string) => HttpClient {
  const open = createHttpClient({ connectTimeoutMs: timeoutMs });
  const guarded = createHttpClient({ connectTimeoutMs: timeoutMs, guard: guard.connectGuard });
  return (baseUrl) => (guard.guards(baseUrl) ? guarded : open);
}
