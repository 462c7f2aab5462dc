import { z } from 'zod';
import type { LogLevel } from './logger.js';

/**
 * The connectors' environment, read with zod as the server reads its own (one schema library
 * for both): each `main.ts` declares every variable it reads in one schema and gets them typed,
 * or one ConfigError naming every problem. Values are trimmed; a blank value counts as unset
 * (env files hold `NAME=` lines). Everything here takes the env object as a parameter: main.ts
 * stays the only place that touches `process.env`.
 */
export type Env = Record<string, string | undefined>;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Trimmed; blank is unset. */
const unsetIfBlank = (value: unknown): unknown => (typeof value === 'string' ? value.trim() || undefined : value);

const optionalText = z.preprocess(unsetIfBlank, z.string().optional());

/** The message for a variable that must be set (also for one required only in some setups). */
export const requiredMessage = (name: string): string => `${name} is required (see the .env.example next to this connector)`;

/** The schema of one variable, by kind; `name` is for the messages. */
export const envVar = {
  required: (name: string) => z.preprocess(unsetIfBlank, z.string({ error: requiredMessage(name) })),
  optional: () => optionalText,
  /** Required, and a URL `new URL()` accepts. */
  url: (name: string) =>
    envVar.required(name).refine((value) => URL.canParse(value), { error: (issue) => `${name} is not a URL: ${String(issue.input)}` }),
  /** An integer in [min, max] (as `Number()` reads it); `fallback` when unset. */
  int: (name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER) =>
    optionalText.transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      const value = Number(raw);
      if (Number.isInteger(value) && value >= min && value <= max) return value;
      ctx.addIssue({ code: 'custom', message: `${name} must be an integer between ${min} and ${max}` });
      return z.NEVER;
    }),
  /** One of `values`; `fallback` when unset. */
  oneOf: <const T extends readonly [string, ...string[]]>(values: T, fallback: T[number], message: string) =>
    z.preprocess(unsetIfBlank, z.enum(values, { error: message }).default(fallback as never)),
};

/** Reads `env` with `schema` (a `z.object` of variables); throws one ConfigError listing every problem. */
export function parseEnv<T>(env: Env, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(env);
  if (!parsed.success) throw new ConfigError(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
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

const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const satisfies readonly LogLevel[];

/** What every connector reads: where Parley is, its key and assistant, where to listen, logging. Spread into a main's schema. */
export function commonEnv(defaultPort: number) {
  return {
    PARLEY_URL: envVar.url('PARLEY_URL'),
    PARLEY_API_KEY: envVar.required('PARLEY_API_KEY'),
    PARLEY_ASSISTANT_ID: envVar.required('PARLEY_ASSISTANT_ID'),
    PORT: envVar.int('PORT', defaultPort, 0, 65535),
    HOST: envVar.optional(),
    PARLEY_SETTINGS_REFRESH_SECONDS: envVar.int('PARLEY_SETTINGS_REFRESH_SECONDS', 60, 0, 86_400),
    LOG_LEVEL: envVar.oneOf(LOG_LEVELS, 'info', `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`),
  };
}

type CommonVars = z.output<z.ZodObject<ReturnType<typeof commonEnv>>>;

/** The common variables, parsed by a schema that spreads `commonEnv`, as the connectors use them. */
export function commonConfig(vars: CommonVars): CommonConfig {
  return {
    parleyUrl: vars.PARLEY_URL,
    parleyApiKey: vars.PARLEY_API_KEY,
    assistantId: vars.PARLEY_ASSISTANT_ID,
    port: vars.PORT,
    host: vars.HOST ?? '127.0.0.1',
    settingsRefreshMs: vars.PARLEY_SETTINGS_REFRESH_SECONDS * 1000,
    logLevel: vars.LOG_LEVEL,
  };
}
