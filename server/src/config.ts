import path from 'node:path';
import { z } from 'zod';
import { parseBaseUrlList } from './answer/providers/model-url-guard.js';
import { resolveEmbeddingsConfig, type EmbeddingsConfig } from './knowledge/embeddings/config.js';

/** Everything the server reads from its environment, typed. `main.ts` is the only caller. */
export interface Config {
  port: number;
  host: string;
  databasePath: string;
  publicUrl: string;
  /** undefined = decide from the database: seed when it is new. */
  seedDemo: boolean | undefined;
  /** Conversations of demo traffic written after the first demo seed (DEMO_TRAFFIC_CONVERSATIONS; 0 = none; default 3000). */
  demoTrafficConversations?: number | undefined;
  trustProxy: number;
  registration: 'open' | 'closed';
  webhookAllowPrivate: boolean;
  /** Lets knowledge documents be fetched/crawled from loopback/private addresses (FETCH_ALLOW_PRIVATE; default false). */
  fetchAllowPrivate?: boolean | undefined;
  logLevel: LogLevel;
  openaiApiKey: string | undefined;
  openaiBaseUrl: string | undefined;
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  /** Lets assistants' model.baseUrl reach loopback/private addresses (MODEL_ALLOW_PRIVATE; default false). */
  modelAllowPrivate?: boolean | undefined;
  /** Base URLs a model.baseUrl may use even when private (MODEL_BASE_URL_ALLOWLIST, comma-separated): a private Ollama/vLLM. */
  modelBaseUrlAllowlist?: string[] | undefined;
  /** Longest silence from a model provider (connecting, first byte, between stream chunks). */
  providerTimeoutMs: number;
  /** Up to this many chunks, questions are answered from the in-memory index (else FTS5). */
  retrievalMemoryMaxChunks?: number | undefined;
  /** Dense retrieval (knowledge/embeddings): absent or null = off, the default. */
  embeddings?: EmbeddingsConfig | null | undefined;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

const booleanFlag = z.enum(['true', 'false']).transform((v) => v === 'true');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_PATH: z.string().min(1).default('./data/parley.db'),
  PUBLIC_URL: z.url().optional(),
  SEED_DEMO: booleanFlag.optional(),
  DEMO_TRAFFIC_CONVERSATIONS: z.coerce.number().int().min(0).max(100_000).default(3000),
  TRUST_PROXY: z.coerce.number().int().min(0).max(10).default(0),
  REGISTRATION: z.enum(['open', 'closed']).default('open'),
  WEBHOOK_ALLOW_PRIVATE: booleanFlag.default(false),
  FETCH_ALLOW_PRIVATE: booleanFlag.default(false),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  OPENAI_API_KEY: z.string().optional(),
  OPENAI_BASE_URL: z.url().optional(),
  ANTHROPIC_API_KEY: z.string().optional(),
  ANTHROPIC_BASE_URL: z.url().optional(),
  MODEL_ALLOW_PRIVATE: booleanFlag.default(false),
  MODEL_BASE_URL_ALLOWLIST: z.string().optional().refine((v) => parseBaseUrlList(v).every((u) => z.url({ protocol: /^https?$/ }).safeParse(u).success), {
    message: 'must be a comma-separated list of http(s) base URLs',
  }),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  RETRIEVAL_MEMORY_MAX_CHUNKS: z.coerce.number().int().min(0).max(100_000_000).optional(),
  EMBEDDINGS_BASE_URL: z.url().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(8192).optional(),
});

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv): Config {
  // Empty strings in env files mean "unset", not "invalid".
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid environment: ${problems}`);
  }
  const e = parsed.data;
  const embeddings = resolveEmbeddingsConfig(e);
  if ('problem' in embeddings) throw new ConfigError(`Invalid environment: ${embeddings.problem}`);
  return {
    port: e.PORT,
    host: e.HOST,
    databasePath: e.DATABASE_PATH === ':memory:' ? ':memory:' : path.resolve(e.DATABASE_PATH),
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    seedDemo: e.SEED_DEMO,
    demoTrafficConversations: e.DEMO_TRAFFIC_CONVERSATIONS,
    trustProxy: e.TRUST_PROXY,
    registration: e.REGISTRATION,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    fetchAllowPrivate: e.FETCH_ALLOW_PRIVATE,
    logLevel: e.LOG_LEVEL,
    openaiApiKey: e.OPENAI_API_KEY,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    anthropicApiKey: e.ANTHROPIC_API_KEY,
    anthropicBaseUrl: e.ANTHROPIC_BASE_URL,
    modelAllowPrivate: e.MODEL_ALLOW_PRIVATE,
    modelBaseUrlAllowlist: parseBaseUrlList(e.MODEL_BASE_URL_ALLOWLIST),
    providerTimeoutMs: e.PROVIDER_TIMEOUT_MS,
    retrievalMemoryMaxChunks: e.RETRIEVAL_MEMORY_MAX_CHUNKS,
    embeddings: embeddings.config,
  };
}
