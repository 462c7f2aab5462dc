import type { Server } from 'node:http';
import type { REST } from '@discordjs/rest';
import type { Client } from 'discord.js';
import { closeServer, listen } from '../core/http-server.js';
import { describeError, type Logger } from '../core/logger.js';
import type { ParleyClient } from '../core/parley-client.js';
import type { SettingsWatcher } from '../core/settings-watcher.js';
import type { DiscordCommandDeps } from './commands/ask.js';
import { dispatchInteraction } from './dispatch.js';
import { createFeedbackIdCodec } from './feedback-id.js';
import { attachGatewayHandlers } from './gateway.js';
import { createInteractionsServer } from './interactions-server.js';
import { buildAskCommand, registerCommands } from './register-commands.js';
import { loadDiscordPublicKey } from './verify-signature.js';

interface CommonDeps {
  parley: ParleyClient;
  settings: SettingsWatcher;
  logger: Logger;
  /** @discordjs/rest with the bot token, pointed at DISCORD_API_URL: registers commands, answers in HTTP mode. */
  rest: REST;
  applicationId: string;
  /** Register on one guild (instant) instead of globally. */
  guildId?: string;
}

export type DiscordConnectorDeps =
  | (CommonDeps & {
      mode: 'gateway';
      client: Client;
      /** Connects the client to the gateway; tests leave it out and feed dispatches themselves. */
      login?: () => Promise<unknown>;
    })
  | (CommonDeps & {
      mode: 'http';
      /** Hex public key from the Developer Portal. */
      publicKey: string;
      port: number;
      host: string;
      nowSeconds?: () => number;
    });

export interface DiscordConnector {
  /** Registers the command, then connects (gateway) or listens (http). Resolves with the bound port in http mode. */
  start(): Promise<{ port?: number }>;
  stop(): Promise<void>;
}

export function createDiscordConnector(deps: DiscordConnectorDeps): DiscordConnector {
  const commandDeps: DiscordCommandDeps = {
    parley: deps.parley,
    settings: deps.settings,
    logger: deps.logger,
    feedbackIds: createFeedbackIdCodec(),
  };
  const dispatch = (input: Parameters<typeof dispatchInteraction>[0], replier: Parameters<typeof dispatchInteraction>[1]) =>
    dispatchInteraction(input, replier, commandDeps);
  // Parsed now so a malformed key fails at start-up, not on the first interaction.
  const publicKey = deps.mode === 'http' ? loadDiscordPublicKey(deps.publicKey) : undefined;
  let server: Server | undefined;
  let detach: (() => void) | undefined;

  async function register(): Promise<void> {
    await registerCommands(deps.rest, deps.applicationId, deps.guildId, deps.settings.current().discord);
    deps.logger.info('discord command registered', { command: deps.settings.current().discord.command, guildId: deps.guildId ?? 'global' });
  }

  return {
    async start() {
      await register();
      deps.settings.onChange(async (next, previous) => {
        // The registration as Discord would get it: a renamed command, a new description or a language change.
        if (JSON.stringify(buildAskCommand(next.discord)) === JSON.stringify(buildAskCommand(previous.discord))) return;
        try {
          await register();
        } catch (err) {
          deps.logger.error('could not re-register the discord command', describeError(err));
        }
      });
      if (deps.mode === 'gateway') {
        detach = attachGatewayHandlers(deps.client, dispatch, deps.logger);
        if (deps.login) await deps.login();
        return {};
      }
      server = createInteractionsServer({
        publicKey: publicKey!,
        rest: deps.rest,
        applicationId: deps.applicationId,
        dispatch,
        logger: deps.logger,
        unhandledText: () => deps.settings.current().texts.notHandled,
        ...(deps.nowSeconds ? { nowSeconds: deps.nowSeconds } : {}),
      });
      const port = await listen(server, deps.port, deps.host);
      deps.logger.info('discord interactions endpoint listening', { url: `http://${deps.host}:${port}/interactions` });
      return { port };
    },
    async stop() {
      deps.settings.stop();
      detach?.();
      if (deps.mode === 'gateway') await deps.client.destroy();
      if (server) await closeServer(server);
    },
  };
}
