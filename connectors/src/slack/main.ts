/**
 * Slack connector process: reads env, wires real dependencies, starts. The only file that
 * touches process.env; createSlackConnector is tested without it.
 */
import { z } from 'zod';
import { commonConfig, commonEnv, envVar, parseEnv } from '../core/env.js';
import { createLogger, type Logger } from '../core/logger.js';
import { runConnectorProcess } from '../core/process.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher } from '../core/settings-watcher.js';
import { createSlackConnector } from './connector.js';

const slackEnv = z.object({
  ...commonEnv(3002),
  SLACK_BOT_TOKEN: envVar.required('SLACK_BOT_TOKEN'),
  SLACK_SIGNING_SECRET: envVar.required('SLACK_SIGNING_SECRET'),
  // Set: Socket Mode; unset: Slack posts to our HTTP endpoint.
  SLACK_APP_TOKEN: envVar.optional(),
  SLACK_API_URL: envVar.optional(),
});

async function main(): Promise<{ logger: Logger; stop: () => Promise<void> }> {
  const vars = parseEnv(process.env, slackEnv);
  const common = commonConfig(vars);
  const logger = createLogger(common.logLevel);
  const { SLACK_APP_TOKEN: appToken, SLACK_API_URL: slackApiUrl } = vars;

  const parley = createParleyClient({ baseUrl: common.parleyUrl, apiKey: common.parleyApiKey, assistantId: common.assistantId });
  const settings = await startSettingsWatcher({ parley, intervalMs: common.settingsRefreshMs, logger });
  const connector = createSlackConnector({
    parley,
    settings,
    logger,
    botToken: vars.SLACK_BOT_TOKEN,
    signingSecret: vars.SLACK_SIGNING_SECRET,
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
