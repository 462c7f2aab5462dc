import { ANTHROPIC_DEFAULT_BASE_URL, createAnthropicProvider } from './anthropic.js';
import { createExtractiveProvider } from './extractive.js';
import { createModelUrlGuard, type LookupAll } from './model-url-guard.js';
import { OPENAI_DEFAULT_BASE_URL, createOpenAiProvider } from './openai.js';
import type { AnswerProviders } from './types.js';

/** The server's providers from its configuration; a missing key shows up in `check`, not as a crash. */
export function createProviders(
  config: {
    openaiApiKey?: string | undefined;
    openaiBaseUrl?: string | undefined;
    anthropicApiKey?: string | undefined;
    anthropicBaseUrl?: string | undefined;
    providerTimeoutMs?: number | undefined;
    modelAllowPrivate?: boolean | undefined;
    modelBaseUrlAllowlist?: readonly string[] | undefined;
  },
  opts: { resolve?: LookupAll } = {},
): AnswerProviders {
  // One guard for both: the operator's own base URLs are trusted, tenants' model.baseUrl are not.
  const urlGuard = createModelUrlGuard({
    allowPrivate: config.modelAllowPrivate ?? false,
    allowlist: config.modelBaseUrlAllowlist ?? [],
    trusted: [config.openaiBaseUrl ?? OPENAI_DEFAULT_BASE_URL, config.anthropicBaseUrl ?? ANTHROPIC_DEFAULT_BASE_URL],
    resolve: opts.resolve,
  });
  return {
    extractive: createExtractiveProvider(),
    openai: createOpenAiProvider({
      apiKey: config.openaiApiKey,
      baseUrl: config.openaiBaseUrl,
      timeoutMs: config.providerTimeoutMs,
      urlGuard,
    }),
    anthropic: createAnthropicProvider({
      apiKey: config.anthropicApiKey,
      baseUrl: config.anthropicBaseUrl,
      timeoutMs: config.providerTimeoutMs,
      urlGuard,
    }),
  };
}
