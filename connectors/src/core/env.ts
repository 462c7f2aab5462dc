import type { LogLevel } from './logger.js';

/**
 * Env parsing shared by the three `main.ts` files. These helpers take the env object as a
 * parameter: main.ts stays the only place that touches `process.env`.
 */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export function requireEnv(env: Env, name: string): string {
  const value = env[name]?.trim();
  if (!value) throw new ConfigError(`${name} is required (see the .env.example next to this connector)`);
  return value;
}

export function optionalEnv(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

export function intEnv(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = optionalEnv(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) throw new ConfigError(`${name} must be an integer between ${min} and ${max}`);
  return value;
}

export interface CommonConfig {
  parleyUrl: string;
  parleyApiKey: string;
  assistantId: string;
  port: number;
  host: string;
  settingsRefreshMs: number;
  logLevel: LogLevel;
}

const LOG_LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export function readCommonConfig(env: Env, defaultPort: number): CommonConfig {
  const parleyUrl = requireEnv(env, 'PARLEY_URL');
  try {
    new URL(parleyUrl);
  } catch {
    throw new ConfigError(`PARLEY_URL is not a URL: ${parleyUrl}`);
  }
  const logLevel = (optionalEnv(env, 'LOG_LEVEL') ?? 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    parleyUrl,
    parleyApiKey: requireEnv(env, 'PARLEY_API_KEY'),
    assistantId: requireEnv(env, 'PARLEY_ASSISTANT_ID'),
    port: intEnv(env, 'PORT', defaultPort, 0, 65535),
    host: optionalEnv(env, 'HOST') ?? '127.0.0.1',
    settingsRefreshMs: intEnv(env, 'PARLEY_SETTINGS_REFRESH_SECONDS', 60, 0, 86_400) * 1000,
    logLevel,
  };
}
