import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { OPENAI_DEFAULT_BASE_URL, normalizeBaseUrl, sameBaseUrl } from './lib/base-url.js';
import type { LogLevel } from './lib/logger.js';
import type { RetryPolicy } from './net/retry.js';

/** Everything the server reads from its environment, typed. `main.ts` is the only caller. */
export interface Config {
  port: number;
  host: string;
  /** The SQLite file (or ':memory:') when `database` is SQLite; '' when it is PostgreSQL. */
  databasePath: string;
  /** Which database (DATABASE_URL, or its alias DATABASE_PATH). Absent = SQLite at databasePath. */
  database?: DatabaseConfig | undefined;
  /** Where rate, abuse and failed-auth limits are counted. Absent = in this process. */
  limits?: LimitsConfig | undefined;
  /** What the operator must know at start (main.ts prints each), e.g. one instance only. */
  warnings?: string[] | undefined;
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
  /**
   * Lease of a running web fetch/crawl job (WEB_JOB_LEASE_MS; default 30 s, renewed every third):
   * how long a job of a dead or stalled instance waits before another instance takes it over.
   */
  webJobLeaseMs?: number | undefined;
  /** Period of the upkeep round: idle conversations ended, outbox pruned (UPKEEP_INTERVAL_MS; default 60 s). */
  upkeepIntervalMs?: number | undefined;
  /** Bearer token for GET /metrics (METRICS_TOKEN); unset = no metrics endpoint (404). */
  metricsToken?: string | undefined;
}

/** An OpenAI-compatible embeddings endpoint (`POST {baseUrl}/embeddings`), for knowledge/embeddings. */
export interface EmbeddingsConfig {
  /** Like OPENAI_BASE_URL: includes the version path (`http://localhost:11434/v1`). */
  baseUrl: string;
  model: string;
  /** Sent as `Authorization: Bearer`; none for a local server. */
  apiKey: string | undefined;
  /** Asked of models that can shorten their vectors (OpenAI text-embedding-3-*); else the model's own. */
  dimensions: number | undefined;
  /**
   * PostgreSQL: how questions search the vectors. `auto` (default): pgvector when the database has
   * (or can create) the extension, else an in-memory copy per instance; `memory`: the copy always.
   */
  vectorSearch?: 'auto' | 'memory' | undefined;
  /** Batch size, timeouts, backoff: defaults in knowledge/embeddings/index.ts; not from the environment (tests shorten waits). */
  tuning?: Partial<EmbeddingsTuning> | undefined;
}

/** Knobs of dense retrieval with sensible defaults (knowledge/embeddings' DEFAULT_TUNING); tests shorten the waits. */
export interface EmbeddingsTuning {
  batchSize: number;
  batchTimeoutMs: number;
  batchRetry: RetryPolicy;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** The backoff's jitter source (net/backoff.ts); Math.random when absent. */
  backoffRandom?: (() => number) | undefined;
  idleSweepMs: number;
  queryTimeoutMs: number;
  queryCooldownMs: number;
  queryCacheSize: number;
  /** PostgreSQL: how long a claimed batch is held without renewal (renewed every third of it). */
  leaseMs: number;
  /** PostgreSQL: how often each instance reads the vectors others stored. */
  vectorPollMs: number;
}

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };

/** `memory`: this process only (one instance). `redis`: shared by every instance (limits/redis.ts). */
export type LimitsConfig = { store: 'memory' } | { store: 'redis'; url: string; prefix: string };

const booleanFlag = z.enum(['true', 'false']).transform((v) => v === 'true');

/** A duration in whole milliseconds within [min, max]; `why` says what a shorter one would break. */
const milliseconds = (min: number, max: number, why: string) =>
  z.coerce
    .number({ error: 'must be a number of milliseconds' })
    .int({ error: 'must be a whole number of milliseconds' })
    .min(min, { error: `must be at least ${min} ms: ${why}` })
    .max(max, { error: `must be at most ${max} ms` });

/** METRICS_TOKEN's length bounds. */
export const METRICS_TOKEN_MIN_CHARS = 16;
export const METRICS_TOKEN_MAX_CHARS = 256;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().min(1).optional(),
  DATABASE_PATH: z.string().min(1).optional(),
  REDIS_URL: z
    .string()
    .optional()
    .refine((v) => v === undefined || (/^rediss?:\/\/[^/?#]/i.test(v) && URL.canParse(v)), {
      message: 'must be a redis:// or rediss:// URL (redis://host:6379/0)',
    }),
  RATE_LIMIT_STORE: z.enum(['memory', 'redis']).optional(),
  REDIS_KEY_PREFIX: z.string().max(64).default('parley:'),
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
  MODEL_BASE_URL_ALLOWLIST: z
    .string()
    .optional()
    .refine((v) => parseBaseUrlList(v).every((u) => z.url({ protocol: /^https?$/ }).safeParse(u).success), {
      message: 'must be a comma-separated list of http(s) base URLs',
    }),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
  RETRIEVAL_MEMORY_MAX_CHUNKS: z.coerce.number().int().min(0).max(100_000_000).optional(),
  EMBEDDINGS_BASE_URL: z.url().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(8192).optional(),
  // PostgreSQL: `memory` keeps the in-memory vector search even where pgvector is available.
  EMBEDDINGS_VECTOR_SEARCH: z.enum(['auto', 'memory']).optional(),
  WEB_JOB_LEASE_MS: milliseconds(
    3_000,
    3_600_000,
    'a live instance that pauses longer than a third of it (GC, a busy event loop) would lose its running job to another',
  ).default(30_000),
  UPKEEP_INTERVAL_MS: milliseconds(1_000, 86_400_000, 'every instance runs the upkeep query that often').default(60_000),
  // Sent by Prometheus in a header: printable ASCII without spaces, long enough not to be guessed.
  METRICS_TOKEN: z
    .string()
    .min(METRICS_TOKEN_MIN_CHARS, { error: `must be at least ${METRICS_TOKEN_MIN_CHARS} characters (openssl rand -hex 32 makes one)` })
    .max(METRICS_TOKEN_MAX_CHARS, { error: `must be at most ${METRICS_TOKEN_MAX_CHARS} characters` })
    .regex(/^[\x21-\x7e]+$/, { error: 'must be printable ASCII without spaces' })
    .optional(),
});

export class ConfigError extends Error {}

/** MODEL_BASE_URL_ALLOWLIST's comma-separated URLs. */
function parseBaseUrlList(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

interface EmbeddingsEnv {
  EMBEDDINGS_BASE_URL?: string | undefined;
  EMBEDDINGS_MODEL?: string | undefined;
  EMBEDDINGS_API_KEY?: string | undefined;
  EMBEDDINGS_DIMENSIONS?: number | undefined;
  EMBEDDINGS_VECTOR_SEARCH?: 'auto' | 'memory' | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
}

/**
 * Dense retrieval is on when EMBEDDINGS_MODEL is set. The endpoint defaults to the server's
 * OpenAI-compatible base (OPENAI_BASE_URL, else api.openai.com). OPENAI_API_KEY is used only
 * when the embeddings go to that same base URL, the host it is already meant for; any other
 * host gets EMBEDDINGS_API_KEY or nothing. Returns a problem message for a setting that cannot work.
 */
function resolveEmbeddingsConfig(env: EmbeddingsEnv): { config: EmbeddingsConfig | null } | { problem: string } {
  if (!env.EMBEDDINGS_MODEL) {
    if (env.EMBEDDINGS_BASE_URL)
      return { problem: 'EMBEDDINGS_BASE_URL is set but EMBEDDINGS_MODEL is not (name the embedding model to turn dense retrieval on)' };
    return { config: null };
  }
  const openAiBase = env.OPENAI_BASE_URL ?? OPENAI_DEFAULT_BASE_URL;
  const baseUrl = normalizeBaseUrl(env.EMBEDDINGS_BASE_URL ?? openAiBase);
  const apiKey =
    env.EMBEDDINGS_API_KEY ?? (env.OPENAI_API_KEY && sameBaseUrl(baseUrl, normalizeBaseUrl(openAiBase)) ? env.OPENAI_API_KEY : undefined);
  if (!apiKey && new URL(baseUrl).hostname === 'api.openai.com') {
    return {
      problem: `EMBEDDINGS_MODEL uses ${baseUrl}, which needs a key: set EMBEDDINGS_API_KEY (or OPENAI_API_KEY), or EMBEDDINGS_BASE_URL for a local server`,
    };
  }
  return {
    config: {
      baseUrl,
      model: env.EMBEDDINGS_MODEL,
      apiKey,
      dimensions: env.EMBEDDINGS_DIMENSIONS,
      vectorSearch: env.EMBEDDINGS_VECTOR_SEARCH ?? 'auto',
    },
  };
}

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
  const database = resolveDatabase(e.DATABASE_URL, e.DATABASE_PATH);
  const { limits, warnings } = resolveLimits(database, e);
  return {
    port: e.PORT,
    host: e.HOST,
    databasePath: database.kind === 'sqlite' ? database.path : '',
    database,
    limits,
    warnings,
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
    webJobLeaseMs: e.WEB_JOB_LEASE_MS,
    upkeepIntervalMs: e.UPKEEP_INTERVAL_MS,
    metricsToken: e.METRICS_TOKEN,
  };
}

const DEFAULT_DATABASE = './data/parley.db';

/**
 * DATABASE_URL (or DATABASE_PATH, its older name: both take the same values) selects the
 * database: postgres:// or postgresql:// is PostgreSQL; a file path, a file: URL or :memory: is
 * SQLite. Error messages never repeat a PostgreSQL URL: it may carry a password.
 */
function resolveDatabase(url: string | undefined, pathAlias: string | undefined): DatabaseConfig {
  const chosen = url !== undefined ? parseDatabase(url, 'DATABASE_URL') : parseDatabase(pathAlias ?? DEFAULT_DATABASE, 'DATABASE_PATH');
  if (url !== undefined && pathAlias !== undefined && !sameDatabase(chosen, parseDatabase(pathAlias, 'DATABASE_PATH'))) {
    throw new ConfigError(
      'Invalid environment: DATABASE_URL and DATABASE_PATH name different databases: set only DATABASE_URL (DATABASE_PATH is its older alias)',
    );
  }
  return chosen;
}

const sameDatabase = (a: DatabaseConfig, b: DatabaseConfig): boolean =>
  a.kind === 'sqlite' ? b.kind === 'sqlite' && a.path === b.path : b.kind === 'postgres' && a.url === b.url;

function parseDatabase(value: string, variable: string): DatabaseConfig {
  const invalid = (why: string) => new ConfigError(`Invalid environment: ${variable}: ${why}`);
  const sqlite = (file: string): DatabaseConfig => ({ kind: 'sqlite', path: file === ':memory:' ? ':memory:' : path.resolve(file) });
  if (/^postgres(?:ql)?:\/\//i.test(value)) {
    if (!URL.canParse(value)) throw invalid('is not a valid PostgreSQL URL (postgres://user:password@host:5432/database)');
    return { kind: 'postgres', url: value };
  }
  if (/^file:/i.test(value)) {
    // SQLite's URI parameters (?mode=ro…) are not passed on: refuse them rather than ignore them.
    if (/[?#]/.test(value)) throw invalid('a file: URL takes no ?query or #fragment here');
    const rest = value.slice('file:'.length);
    if (rest === ':memory:') return sqlite(':memory:');
    let file: string;
    try {
      // file:///abs/parley.db (or file://localhost/…) is absolute; file:data/parley.db is relative to the working directory.
      file = rest.startsWith('//') ? fileURLToPath(value) : decodeURIComponent(rest);
    } catch {
      throw invalid('is not a local file: URL (file:///absolute/path.db or file:relative/path.db)');
    }
    if (!file) throw invalid('names no file');
    return sqlite(file);
  }
  // Any other scheme (mysql://, sqlite:…) is a mistake, not a file name; one letter is a Windows drive.
  const scheme = /^([a-z][a-z0-9+.-]+):/i.exec(value)?.[1];
  if (scheme) throw invalid(`unsupported scheme "${scheme}:": use postgres://, postgresql://, a file path, file: or :memory:`);
  return sqlite(value);
}

/**
 * RATE_LIMIT_STORE (memory | redis; default redis when REDIS_URL is set, else memory). Several
 * instances on PostgreSQL must count limits in one place, so PostgreSQL needs Redis unless the
 * operator says memory on purpose: one instance only, which the server repeats at start.
 */
function resolveLimits(
  database: DatabaseConfig,
  e: { REDIS_URL?: string | undefined; RATE_LIMIT_STORE?: 'memory' | 'redis' | undefined; REDIS_KEY_PREFIX: string },
): { limits: LimitsConfig; warnings: string[] } {
  const store = e.RATE_LIMIT_STORE ?? (e.REDIS_URL ? 'redis' : 'memory');
  const warnings: string[] = [];
  if (store === 'redis') {
    if (!e.REDIS_URL) throw new ConfigError('Invalid environment: REDIS_URL is required with RATE_LIMIT_STORE=redis');
    return { limits: { store: 'redis', url: e.REDIS_URL, prefix: e.REDIS_KEY_PREFIX }, warnings };
  }
  if (database.kind === 'postgres') {
    if (!e.RATE_LIMIT_STORE) {
      throw new ConfigError(
        'Invalid environment: REDIS_URL is required with PostgreSQL (DATABASE_URL=postgres://…): instances share their rate limits through Redis. For a single instance, set RATE_LIMIT_STORE=memory',
      );
    }
    warnings.push(
      'RATE_LIMIT_STORE=memory with PostgreSQL: rate limits are counted in this process only, so run ONE instance (each further instance would admit the full limits again). Set REDIS_URL to run several.',
    );
  }
  if (e.REDIS_URL) warnings.push('REDIS_URL is set but RATE_LIMIT_STORE=memory: Redis is not used.');
  return { limits: { store: 'memory' }, warnings };
}
