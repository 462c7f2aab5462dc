import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commonConfig, commonEnv, ConfigError, envVar, parseEnv } from './env.js';

const REQUIRED = { PARLEY_URL: 'http://127.0.0.1:3000', PARLEY_API_KEY: 'sk_test', PARLEY_ASSISTANT_ID: 'asst_1' };

const readCommon = (env: Record<string, string | undefined>, defaultPort = 3001) =>
  commonConfig(parseEnv(env, z.object(commonEnv(defaultPort))));

/** The message of the ConfigError `read` throws. */
function configError(read: () => unknown): string {
  try {
    read();
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('the common connector env', () => {
  it('applies the defaults when only the required variables are set', () => {
    expect(readCommon(REQUIRED, 3002)).toEqual({
      parleyUrl: 'http://127.0.0.1:3000',
      parleyApiKey: 'sk_test',
      assistantId: 'asst_1',
      port: 3002,
      host: '127.0.0.1',
      settingsRefreshMs: 60_000,
      logLevel: 'info',
    });
  });

  it('reads every variable, trimmed', () => {
    const config = readCommon({
      PARLEY_URL: ' https://parley.example/ ',
      PARLEY_API_KEY: ' sk_x\n',
      PARLEY_ASSISTANT_ID: '\tasst_2 ',
      PORT: ' 0 ',
      HOST: ' 0.0.0.0 ',
      PARLEY_SETTINGS_REFRESH_SECONDS: '5',
      LOG_LEVEL: ' debug ',
    });
    expect(config).toEqual({
      parleyUrl: 'https://parley.example/',
      parleyApiKey: 'sk_x',
      assistantId: 'asst_2',
      port: 0,
      host: '0.0.0.0',
      settingsRefreshMs: 5000,
      logLevel: 'debug',
    });
  });

  it('treats a blank value as unset: a default for an optional variable, "required" for a required one', () => {
    expect(readCommon({ ...REQUIRED, PORT: '  ', HOST: '', LOG_LEVEL: ' ', PARLEY_SETTINGS_REFRESH_SECONDS: '' })).toMatchObject({
      port: 3001,
      host: '127.0.0.1',
      logLevel: 'info',
      settingsRefreshMs: 60_000,
    });
    expect(configError(() => readCommon({ ...REQUIRED, PARLEY_API_KEY: '   ' }))).toBe(
      'PARLEY_API_KEY is required (see the .env.example next to this connector)',
    );
  });

  it('names each kind of problem as before', () => {
    expect(configError(() => readCommon({ ...REQUIRED, PARLEY_URL: ' not a url ' }))).toBe('PARLEY_URL is not a URL: not a url');
    expect(configError(() => readCommon({ ...REQUIRED, PORT: '70000' }))).toBe('PORT must be an integer between 0 and 65535');
    expect(configError(() => readCommon({ ...REQUIRED, PORT: '80.5' }))).toBe('PORT must be an integer between 0 and 65535');
    expect(configError(() => readCommon({ ...REQUIRED, PARLEY_SETTINGS_REFRESH_SECONDS: '-1' }))).toBe(
      'PARLEY_SETTINGS_REFRESH_SECONDS must be an integer between 0 and 86400',
    );
    expect(configError(() => readCommon({ ...REQUIRED, LOG_LEVEL: 'verbose' }))).toBe(
      'LOG_LEVEL must be one of debug, info, warn, error, silent',
    );
  });

  it('lists every problem in one error, in the order of the schema', () => {
    const message = configError(() => readCommon({ PARLEY_URL: 'nope', PORT: 'eighty', LOG_LEVEL: 'loud' }));
    expect(message).toBe(
      [
        'PARLEY_URL is not a URL: nope',
        'PARLEY_API_KEY is required (see the .env.example next to this connector)',
        'PARLEY_ASSISTANT_ID is required (see the .env.example next to this connector)',
        'PORT must be an integer between 0 and 65535',
        'LOG_LEVEL must be one of debug, info, warn, error, silent',
      ].join('; '),
    );
  });

  it("lists a connector's own variables with the common ones", () => {
    const schema = z.object({
      ...commonEnv(3001),
      DISCORD_TOKEN: envVar.required('DISCORD_TOKEN'),
      DISCORD_MODE: envVar.oneOf(['gateway', 'http'], 'gateway', 'DISCORD_MODE must be "gateway" or "http"'),
    });
    expect(configError(() => parseEnv({ ...REQUIRED, PARLEY_URL: undefined, DISCORD_MODE: 'webhook' }, schema))).toBe(
      'PARLEY_URL is required (see the .env.example next to this connector); DISCORD_TOKEN is required (see the .env.example next to this connector); DISCORD_MODE must be "gateway" or "http"',
    );
    expect(parseEnv({ ...REQUIRED, DISCORD_TOKEN: ' t ', DISCORD_MODE: '' }, schema)).toMatchObject({
      DISCORD_TOKEN: 't',
      DISCORD_MODE: 'gateway',
    });
  });
});
