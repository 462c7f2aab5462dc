import type { Server } from 'node:http';
import { ActivityTypes } from 'botbuilder';
import { Application, TeamsAdapter } from '@microsoft/teams-ai';
import { closeServer, listen } from '../core/http-server.js';
import { describeError, type Logger } from '../core/logger.js';
import type { ParleyClient } from '../core/parley-client.js';
import type { SettingsWatcher } from '../core/settings-watcher.js';
import { FEEDBACK_VERB } from './card.js';
import { createAskHandler } from './commands/ask.js';
import { createFeedbackHandler } from './commands/feedback.js';
import { createMessagesServer } from './server.js';

export interface TeamsConnectorDeps {
  parley: ParleyClient;
  settings: SettingsWatcher;
  logger: Logger;
  /**
   * Empty → no authentication at all (Bot Framework Emulator / local testing only).
   * Set → every request must carry a valid Bot Framework JWT for this app id.
   */
  appId: string;
  appPassword: string;
  /** Set for a single-tenant Azure bot (the only kind Azure still creates); empty → multi-tenant. */
  tenantId: string;
  port: number;
  host: string;
  typingIntervalMs?: number;
}

export interface TeamsConnector {
  app: Application;
  start(): Promise<{ port: number }>;
  stop(): Promise<void>;
}

export function createTeamsConnector(deps: TeamsConnectorDeps): TeamsConnector {
  const adapter = new TeamsAdapter({
    MicrosoftAppId: deps.appId,
    MicrosoftAppPassword: deps.appPassword,
    MicrosoftAppTenantId: deps.tenantId,
    MicrosoftAppType: deps.appId && deps.tenantId ? 'SingleTenant' : 'MultiTenant',
  });
  const app = new Application({
    adapter,
    ...(deps.appId ? { botAppId: deps.appId } : {}),
    // Own per-turn typing indicator instead (see typing.ts).
    startTypingTimer: false,
    removeRecipientMention: true,
  });
  const commandDeps = {
    parley: deps.parley,
    settings: deps.settings,
    logger: deps.logger,
    ...(deps.typingIntervalMs ? { typingIntervalMs: deps.typingIntervalMs } : {}),
  };
  const ask = createAskHandler(commandDeps);

  // Routes are tried in order: the card button first (a message with `value` and no text),
  // then the "ask" command, then any other message.
  app.adaptiveCards.actionSubmit(FEEDBACK_VERB, createFeedbackHandler(commandDeps));
  app.message(/^\s*\/?ask\b/i, ask);
  app.activity(ActivityTypes.Message, ask);
  app.error(async (_context, err) => {
    deps.logger.error('teams turn failed', describeError(err));
  });

  let server: Server | undefined;
  return {
    app,
    async start() {
      server = createMessagesServer(
        adapter,
        async (context) => {
          await app.run(context);
        },
        deps.logger,
      );
      const port = await listen(server, deps.port, deps.host);
      deps.logger.info('teams messaging endpoint listening', {
        url: `http://${deps.host}:${port}/api/messages`,
        authentication: deps.appId ? 'bot framework' : 'none (emulator mode)',
      });
      return { port };
    },
    async stop() {
      deps.settings.stop();
      if (server) await closeServer(server);
    },
  };
}
