import { REST } from '@discordjs/rest';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listen } from '../core/http-server.js';
import { createMemoryLogger } from '../core/logger.js';
import { createDiscordTestKeys, signDiscordRequest, slashCommandPayload } from '../test-support/discord-interactions.js';
import { createInteractionsServer } from './interactions-server.js';
import { loadDiscordPublicKey } from './verify-signature.js';
import { LOCALES } from '../../../server/src/i18n/locales.js';
import type { Server } from 'node:http';

/** The last resort of the HTTP endpoint: an interaction that no command answered still gets a reply. */
describe('discord interactions endpoint, nothing answered', () => {
  const keys = createDiscordTestKeys();
  let server: Server | undefined;
  afterEach(async () => {
    if (server) await closeServer(server);
  });

  async function postUnanswered(unhandledText?: () => string): Promise<unknown> {
    server = createInteractionsServer({
      publicKey: loadDiscordPublicKey(keys.publicKeyHex),
      rest: new REST({ api: 'http://127.0.0.1:9/api', retries: 0 }),
      applicationId: '111111111111111111',
      // A dispatch that never replies (an error before any reply was possible).
      dispatch: async () => {},
      logger: createMemoryLogger(),
      ...(unhandledText ? { unhandledText } : {}),
    });
    const port = await listen(server, 0, '127.0.0.1');
    const body = JSON.stringify(slashCommandPayload({ question: 'Hola' }));
    const res = await fetch(`http://127.0.0.1:${port}/interactions`, {
      method: 'POST',
      headers: signDiscordRequest(keys.privateKey, body, Math.floor(Date.now() / 1000)),
      body,
    });
    expect(res.status).toBe(200);
    return res.json();
  }

  it("says so privately in the assistant's language", async () => {
    const es = LOCALES.es!.connector.notHandled;
    expect(await postUnanswered(() => es)).toEqual({ type: 4, data: { content: es, flags: 64 } });
  });

  it('says so in English without the texts', async () => {
    expect(await postUnanswered()).toEqual({ type: 4, data: { content: LOCALES.en!.connector.notHandled, flags: 64 } });
  });
});
