/**
 * Discord connector process: reads env, wires real dependencies, starts. The only file that
 * touches process.env; everything else is built by createDiscordConnector and tested without it.
 */
import { REST } from '@discordjs/rest';
import { Client, GatewayIntentBits } from 'discord.js';
import { z } from 'zod';
import { commonConfig, commonEnv, envVar, parseEnv, requiredMessage } from '../core/env.js';
import { createLogger, describeError, type Logger } from '../core/logger.js';
import { runConnectorProcess } from '../core/process.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher } from '../core/settings-watcher.js';
import { createDiscordConnector } from './connector.js';

/** @discordjs/rest appends `/v10`; this is its own default. */
const DEFAULT_DISCORD_API_URL = 'https://discord.com/api';

const discordEnv = z
  .object({
    ...commonEnv(3001),
    DISCORD_TOKEN: envVar.required('DISCORD_TOKEN'),
    DISCORD_APPLICATION_ID: envVar.required('DISCORD_APPLICATION_ID'),
    DISCORD_GUILD_ID: envVar.optional(),
    DISCORD_API_URL: envVar.optional(),
    DISCORD_MODE: envVar.oneOf(['gateway', 'http'], 'gateway', 'DISCORD_MODE must be "gateway" or "http"'),
    DISCORD_PUBLIC_KEY: envVar.optional(),
  })
  // Interactions are signed with the public key, so HTTP mode needs it. `when`: checked even
  // beside other problems, so the one error lists this one too.
  .refine((vars) => vars.DISCORD_MODE !== 'http' || vars.DISCORD_PUBLIC_KEY !== undefined, {
    error: requiredMessage('DISCORD_PUBLIC_KEY'),
    path: ['DISCORD_PUBLIC_KEY'],
    when: () => true,
  })
  // The mode with what it needs, so the type says HTTP mode has its key.
  .transform(({ DISCORD_MODE, DISCORD_PUBLIC_KEY, ...vars }) => ({
    ...vars,
    transport:
      DISCORD_MODE === 'http' && DISCORD_PUBLIC_KEY !== undefined
        ? { mode: 'http' as const, publicKey: DISCORD_PUBLIC_KEY }
        : { mode: 'gateway' as const },
  }));

async function main(): Promise<{ logger: Logger; stop: () => Promise<void> }> {
  const vars = parseEnv(process.env, discordEnv);
  const common = commonConfig(vars);
  const logger = createLogger(common.logLevel);
  const { DISCORD_TOKEN: token, DISCORD_APPLICATION_ID: applicationId, DISCORD_GUILD_ID: guildId, transport } = vars;
  const apiUrl = (vars.DISCORD_API_URL ?? DEFAULT_DISCORD_API_URL).replace(/\/+$/, '');

  const parley = createParleyClient({ baseUrl: common.parleyUrl, apiKey: common.parleyApiKey, assistantId: common.assistantId });
  const settings = await startSettingsWatcher({ parley, intervalMs: common.settingsRefreshMs, logger });
  const rest = new REST({ api: apiUrl }).setToken(token);
  const base = { parley, settings, logger, rest, applicationId, ...(guildId ? { guildId } : {}) };

  const connector =
    transport.mode === 'gateway'
      ? (() => {
          // Slash commands arrive as interactions, which need no privileged intent; Guilds keeps channel names cached.
          const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiUrl } });
          client.on('error', (err) => logger.error('discord client error', describeError(err)));
          return createDiscordConnector({ ...base, mode: 'gateway', client, login: () => client.login(token) });
        })()
      : createDiscordConnector({ ...base, ...transport, port: common.port, host: common.host });

  await connector.start();
  logger.info('discord connector started', { mode: transport.mode, assistantId: common.assistantId });

  return { logger, stop: () => connector.stop() };
}

runConnectorProcess('discord', main);
