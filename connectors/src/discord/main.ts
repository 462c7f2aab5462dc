/**
 * Discord connector process: reads env, wires real dependencies, starts. The only file that
 * touches process.env; everything else is built by createDiscordConnector and tested without it.
 */
import { REST } from '@discordjs/rest';
import { Client, GatewayIntentBits } from 'discord.js';
import { ConfigError, optionalEnv, readCommonConfig, requireEnv } from '../core/env.js';
import { createLogger, describeError, type Logger } from '../core/logger.js';
import { runConnectorProcess } from '../core/process.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher } from '../core/settings-watcher.js';
import { createDiscordConnector } from './connector.js';

/** @discordjs/rest appends `/v10`; this is its own default. */
const DEFAULT_DISCORD_API_URL = 'https://discord.com/api';

async function main(): Promise<{ logger: Logger; stop: () => Promise<void> }> {
  const env = process.env;
  const common = readCommonConfig(env, 3001);
  const logger = createLogger(common.logLevel);
  const token = requireEnv(env, 'DISCORD_TOKEN');
  const applicationId = requireEnv(env, 'DISCORD_APPLICATION_ID');
  const guildId = optionalEnv(env, 'DISCORD_GUILD_ID');
  const apiUrl = (optionalEnv(env, 'DISCORD_API_URL') ?? DEFAULT_DISCORD_API_URL).replace(/\/+$/, '');
  const mode = optionalEnv(env, 'DISCORD_MODE') ?? 'gateway';
  if (mode !== 'gateway' && mode !== 'http') throw new ConfigError('DISCORD_MODE must be "gateway" or "http"');

  const parley = createParleyClient({ baseUrl: common.parleyUrl, apiKey: common.parleyApiKey, assistantId: common.assistantId });
  const settings = await startSettingsWatcher({ parley, intervalMs: common.settingsRefreshMs, logger });
  const rest = new REST({ api: apiUrl }).setToken(token);
  const base = { parley, settings, logger, rest, applicationId, ...(guildId ? { guildId } : {}) };

  const connector =
    mode === 'gateway'
      ? (() => {
          // Slash commands arrive as interactions, which need no privileged intent; Guilds keeps channel names cached.
          const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: apiUrl } });
          client.on('error', (err) => logger.error('discord client error', describeError(err)));
          return createDiscordConnector({ ...base, mode: 'gateway', client, login: () => client.login(token) });
        })()
      : createDiscordConnector({ ...base, mode: 'http', publicKey: requireEnv(env, 'DISCORD_PUBLIC_KEY'), port: common.port, host: common.host });

  await connector.start();
  logger.info('discord connector started', { mode, assistantId: common.assistantId });

  return { logger, stop: () => connector.stop() };
}

runConnectorProcess('discord', main);
