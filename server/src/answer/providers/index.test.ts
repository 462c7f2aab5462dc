import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createProviders } from './index.js';

describe('providers from the environment', () => {
  it('reads PROVIDER_TIMEOUT_MS (default 30 s) and refuses nonsense', () => {
    expect(loadConfig({}).providerTimeoutMs).toBe(30_000);
    expect(loadConfig({ PROVIDER_TIMEOUT_MS: '45000' }).providerTimeoutMs).toBe(45_000);
    expect(() => loadConfig({ PROVIDER_TIMEOUT_MS: '5' })).toThrow(ConfigError);
    expect(() => loadConfig({ PROVIDER_TIMEOUT_MS: 'soon' })).toThrow(/PROVIDER_TIMEOUT_MS/);
  });

  it('wires all three providers; keys decide what can be saved', () => {
    const none = createProviders(loadConfig({}));
    expect(Object.keys(none).sort()).toEqual(['anthropic', 'extractive', 'openai']);
    expect(none.openai?.check?.({ provider: 'openai' })).toMatch(/OPENAI_API_KEY/);
    expect(none.anthropic?.check?.({ provider: 'anthropic' })).toMatch(/ANTHROPIC_API_KEY/);
    const keyed = createProviders(loadConfig({ OPENAI_API_KEY: 'sk-x', ANTHROPIC_API_KEY: 'ak-x' }));
    expect(keyed.openai?.check?.({ provider: 'openai' })).toBeNull();
    expect(keyed.anthropic?.check?.({ provider: 'anthropic' })).toBeNull();
    // A self-hosted OpenAI-compatible server as the server's base URL needs no key.
    const ollama = createProviders(loadConfig({ OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }));
    expect(ollama.openai?.check?.({ provider: 'openai' })).toBeNull();
  });
});
