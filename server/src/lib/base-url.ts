/**
 * Base URLs of OpenAI-compatible endpoints (`https://api.openai.com/v1`, a local Ollama's
 * `http://localhost:11434/v1`): the default, its normal form, and when two name the same one.
 * Ground floor: config.ts (embeddings settings) and the model providers both need them.
 */

/** OPENAI_BASE_URL when unset. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** A base URL without a path gets `/v1` (`http://localhost:11434` → `http://localhost:11434/v1`). */
export function normalizeBaseUrl(base: string): string {
  const url = new URL(base);
  if (url.pathname === '/' || url.pathname === '') url.pathname = '/v1';
  return url.toString().replace(/\/+$/, '');
}

/** Same origin, path (trailing slashes aside) and query: an API key meant for one may go to the other. */
export function sameBaseUrl(a: string, b: string): boolean {
  const norm = (u: string) => {
    try {
      const url = new URL(u);
      return `${url.origin}${url.pathname.replace(/\/+$/, '')}${url.search}`;
    } catch {
      return u;
    }
  };
  return norm(a) === norm(b);
}
