/**
 * Teams connector process: reads env, wires real dependencies, starts. The only file that
 * touches process.env; createTeamsConnector is tested without it.
 */
import { z } from 'zod';
import { commonConfig, commonEnv, envVar, parseEnv } from '../core/env.js';
import { createLogger, type Logger } from '../core/logger.js';
import { runConnectorProcess } from '../core/process.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher } from '../core/settings-watcher.js';
import { createTeamsConnector } from './connector.js';

const teamsEnv = z.object({
  // 3978 is the Bot Framework's customary local port (the Emulator and Teams Toolkit default to it).
  ...commonEnv(3978),
  // Empty only for the Bot Framework Emulator (unauthenticated requests); main warns.
  MICROSOFT_APP_ID: envVar.optional(),
  MICROSOFT_APP_PASSWORD: envVar.optional(),
  MICROSOFT_APP_TENANT_ID: envVar.optional(),
});

async function main(): Promise<{ logger: Logger; stop: () => Promise<void> }> {
  const vars = parseEnv(process.env, teamsEnv);
  const common = commonConfig(vars);
  const logger = createLogger(common.logLevel);
  const appId = vars.MICROSOFT_APP_ID ?? '';
  if (!appId)
    logger.warn('MICROSOFT_APP_ID is empty: accepting UNAUTHENTICATED requests (Bot Framework Emulator mode). Never expose this publicly.');

  const parley = createParleyClient({
    baseUrl: common.parleyUrl,
    apiKey: common.parleyApiKey,
    assistantId: common.assistantId,
    // Teams waits ~15 s for the bot to finish a turn; an answer later than that is lost anyway.
    timeoutMs: 12_000,
    maxRetryDelayMs: 2_000,
  });
  const settings = await startSettingsWatcher({ parley, intervalMs: common.settingsRefreshMs, logger });
  const connector = createTeamsConnector({
    parley,
    settings,
    logger,
    appId,
    appPassword: vars.MICROSOFT_APP_PASSWORD ?? '',
    tenantId: vars.MICROSOFT_APP_TENANT_ID ?? '',
    port: common.port,
    host: common.host,
  });
  await connector.start();
  logger.info('teams connector started', { assistantId: common.assistantId });

  return { logger, stop: () => connector.stop() };
}

runConnectorProcess('teams', main);
