import { createAnthropicProvider } from './anthropic.js';
import { createExtractiveProvider } from './extractive.js';
import { createOpenAiProvider } from './openai.js';
import type { AnswerProviders } from './types.js';

/** The server's providers from its configuration; a missing key shows up in `check`, not as a crash. */
export function createProviders(config: {
  openaiApiKey?: string | undefined; openaiBaseUrl?: string | undefined;
  anthropicApiKey?: string | undefined; anthropicBaseUrl?: string | undefined;
  providerTimeoutMs?: number | undefined;
}): AnswerProviders {
  return {
    extractive: createExtractiveProvider(),
    openai: createOpenAiProvider({ apiKey: config.openaiApiKey, baseUrl: config.openaiBaseUrl, timeoutMs: config.providerTimeoutMs }),
    anthropic: createAnthropicProvider({ apiKey: config.anthropicApiKey, baseUrl: config.anthropicBaseUrl, timeoutMs: config.providerTimeoutMs }),
  };
}
