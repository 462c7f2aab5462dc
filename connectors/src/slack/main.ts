/**
 * Slack connector process: reads env, wires real dependencies, starts. The only file that
 * touches process.env; createSlackConnector is tested without it.
 */
import { optionalEnv, readCommonConfig, requireEnv } from '../core/env.js';
import { createLogger, type Logger } from '../core/logger.js';
import { runConnectorProcess } from '../core/process.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher } from '../core/settings-watcher.js';
import { createSlackConnector } from './connector.js';

async function main(): Promise<{ logger: Logger; stop: () => Promise<void> }> {
  const env = process.env;
  const common = readCommonConfig(env, 3002);
  const logger = createLogger(common.logLevel);
  const appToken = optionalEnv(env, 'SLACK_APP_TOKEN');
  const slackApiUrl = optionalEnv(env, 'SLACK_API_URL');

  const parley = createParleyClient({ baseUrl: common.parleyUrl, apiKey: common.parleyApiKey, assistantId: common.assistantId });
  const settings = await startSettingsWatcher({ parley, intervalMs: common.settingsRefreshMs, logger });
  const connector = createSlackConnector({
    parley,
    settings,
    logger,
    botToken: requireEnv(env, 'SLACK_BOT_TOKEN'),
    signingSecret: requireEnv(env, 'SLACK_SIGNING_SECRET'),
    ...(appToken ? { appToken } : {}),
    ...(slackApiUrl ? { slackApiUrl } : {}),
    port: common.port,
    host: common.host,
  });
  await connector.start();
  logger.info('slack connector started', { mode: appToken ? 'socket' : 'http', assistantId: common.assistantId });

  return { logger, stop: () => connector.stop() };
}

runConnectorProcess('slack', main);
