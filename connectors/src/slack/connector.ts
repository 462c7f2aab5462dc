import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, type BlockAction, type ButtonAction } from '@slack/bolt';
import { describeError, type Logger } from '../core/logger.js';
import type { ParleyClient } from '../core/parley-client.js';
import type { SettingsWatcher } from '../core/settings-watcher.js';
import { FEEDBACK_ACTION_DOWN, FEEDBACK_ACTION_UP } from './blocks.js';
import { toBoltLogger } from './bolt-logger.js';
import { createAppMentionListener } from './commands/app-mention.js';
import { createFeedbackListener } from './commands/feedback.js';
import { createSlashCommandListener } from './commands/slash-command.js';

export interface SlackConnectorDeps {
  parley: ParleyClient;
  settings: SettingsWatcher;
  logger: Logger;
  botToken: string;
  signingSecret: string;
  /** Set → Socket Mode (no public URL needed); unset → HTTP receiver at POST /slack/events. */
  appToken?: string;
  /** Web API base, e.g. `https://slack.com/api/`; tests point it at a local fake. */
  slackApiUrl?: string;
  port: number;
  host: string;
}

export interface SlackConnector {
  app: App;
  /** Resolves with the bound port in HTTP mode. */
  start(): Promise<{ port?: number }>;
  stop(): Promise<void>;
}

export function createSlackConnector(deps: SlackConnectorDeps): SlackConnector {
  const boltLogger = toBoltLogger(deps.logger);
  const clientOptions = {
    ...(deps.slackApiUrl ? { slackApiUrl: deps.slackApiUrl } : {}),
    // The default retries for ~30 minutes; a chat reply that late is worse than a logged failure.
    retryConfig: { retries: 2, factor: 2, minTimeout: 500, maxTimeout: 5000 },
  };
  const receiver = deps.appToken
    ? undefined
    : new HTTPReceiver({
        signingSecret: deps.signingSecret,
        endpoints: '/slack/events',
        logger: boltLogger,
        customRoutes: [
          {
            path: '/healthz',
            method: ['GET'],
            handler: (_req, res) => void res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'),
          },
        ],
      });
  const app = deps.appToken
    ? new App({
        token: deps.botToken,
        appToken: deps.appToken,
        socketMode: true,
        signingSecret: deps.signingSecret,
        logger: boltLogger,
        clientOptions,
      })
    : new App({ token: deps.botToken, receiver, logger: boltLogger, clientOptions });

  const commandDeps = { parley: deps.parley, settings: deps.settings, logger: deps.logger };
  // Every slash command reaches the one listener, which compares it with the current settings:
  // a renamed command then needs no restart here, only the change in the Slack app config.
  app.command(/^\/.+/, createSlashCommandListener(commandDeps));
  app.event('app_mention', createAppMentionListener(commandDeps));
  app.action<BlockAction<ButtonAction>>(
    new RegExp(`^(${FEEDBACK_ACTION_UP}|${FEEDBACK_ACTION_DOWN})$`),
    createFeedbackListener(commandDeps),
  );
  app.error(async (err) => {
    deps.logger.error('slack listener error', describeError(err));
  });

  return {
    app,
    async start() {
      if (deps.appToken) {
        await app.start();
        deps.logger.info('slack connector connected (socket mode)');
        return {};
      }
      const server = (await app.start({ port: deps.port, host: deps.host })) as Server;
      const port = (server.address() as AddressInfo).port;
      deps.logger.info('slack events endpoint listening', { url: `http://${deps.host}:${port}/slack/events` });
      return { port };
    },
    async stop() {
      deps.settings.stop();
      await app.stop();
    },
  };
}
