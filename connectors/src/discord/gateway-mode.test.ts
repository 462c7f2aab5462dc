import { REST } from '@discordjs/rest';
import { Client } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../core/logger.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher } from '../core/settings-watcher.js';
import { buttonPayload, IDS, slashCommandPayload } from '../test-support/discord-interactions.js';
import { startFakeDiscordApi, type FakeDiscordApi } from '../test-support/fake-discord-api.js';
import { startParleyUnderTest, type ParleyUnderTest } from '../test-support/parley-under-test.js';
import { createDiscordConnector, type DiscordConnector } from './connector.js';

/**
 * DISCORD_MODE=gateway through real discord.js objects. There is no gateway to connect to, so
 * the test plays the websocket's part: discord.js's INTERACTION_CREATE packet handler
 * (src/client/websocket/handlers/INTERACTION_CREATE.js) does exactly
 * `client.actions.InteractionCreate.handle(packet.d)`, and so do we. From there on it is all
 * discord.js: a real ChatInputCommandInteraction whose deferReply/editReply hit the fake REST API.
 */
type ActionsClient = { actions: { InteractionCreate: { handle(data: unknown): void } } };

describe('discord connector, gateway mode', () => {
  let parley: ParleyUnderTest;
  let discord: FakeDiscordApi;
  let client: Client;
  let connector: DiscordConnector;
  const logger = createMemoryLogger();

  beforeEach(async () => {
    parley = await startParleyUnderTest();
    discord = await startFakeDiscordApi();
    client = new Client({ intents: [], rest: { api: discord.apiUrl, retries: 0 } });
    const parleyClient = createParleyClient({ baseUrl: parley.url, apiKey: parley.apiKey, assistantId: parley.assistantId });
    connector = createDiscordConnector({
      mode: 'gateway',
      client,
      parley: parleyClient,
      settings: await startSettingsWatcher({ parley: parleyClient, intervalMs: 0, logger }),
      logger,
      rest: new REST({ api: discord.apiUrl, retries: 0 }).setToken('bot-token'),
      applicationId: IDS.application,
    });
    await connector.start();
  });

  afterEach(async () => {
    await connector.stop();
    await discord.close();
    await parley.close();
  });

  const dispatch = (payload: unknown) => (client as unknown as ActionsClient).actions.InteractionCreate.handle(payload);

  it('registers the command globally when no guild is configured', () => {
    const put = discord.calls().find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/applications/${IDS.application}/commands`);
  });

  it('defers through discord.js, then edits the reply with the answer embed', async () => {
    dispatch(slashCommandPayload({ question: 'How do I embed the chat widget?', token: 'gw-token', id: '123456789012345678' }));

    const callback = await discord.waitFor((r) => r.path === '/api/v10/interactions/123456789012345678/gw-token/callback');
    expect(callback.body).toEqual({ type: 5, data: { flags: 0 } });
    const edit = await discord.waitFor(
      (r) => r.method === 'PATCH' && r.path === `/api/v10/webhooks/${IDS.application}/gw-token/messages/@original`,
    );
    const body = edit.body as {
      embeds: { description: string; author: { name: string }; footer: { text: string } }[];
      components: unknown[];
    };
    const [exchange] = parley.chatExchanges();
    expect(body.embeds[0]?.description.startsWith(exchange?.response.response ?? '?')).toBe(true);
    expect(body.embeds[0]?.description).toContain('**Sources**\n1. [');
    // The demo assistant has no bot name of its own: the assistant's name stands in.
    expect(body.embeds[0]?.author.name).toBe('Parley Guide');
    expect(body.embeds[0]?.footer.text).toMatch(/^Confidence \d+%$/);
    expect(body.components).toHaveLength(1);
    // The defer went out before Parley was asked: Discord's 3-second window never depends on the answer.
    expect(discord.requests.indexOf(callback)).toBeLessThan(discord.requests.indexOf(edit));

    const chat = parley.chatRequests()[0]?.body as { sessionId: string; metadata: Record<string, string> };
    expect(chat.sessionId).toBe(`discord:${IDS.channel}:${IDS.user}`);
    expect(chat.metadata).toMatchObject({ source: 'discord', userId: IDS.user, userName: 'ada' });
  });

  it('handles a 👎 click through a real ButtonInteraction', async () => {
    dispatch(slashCommandPayload({ question: 'Q?', token: 'gw-q' }));
    const edit = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/gw-q/'));
    const downId = (edit.body as { components: { components: { custom_id: string }[] }[] }).components[0]?.components[1]?.custom_id ?? '';

    dispatch(buttonPayload({ customId: downId, token: 'gw-fb', id: '223456789012345678' }));
    const callback = await discord.waitFor((r) => r.path === '/api/v10/interactions/223456789012345678/gw-fb/callback');
    expect(callback.body).toEqual({ type: 5, data: { flags: 64 } });
    const thanks = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/gw-fb/'));
    expect((thanks.body as { content: string }).content).toBe('Thanks for your feedback!');
    const feedback = parley.requests.find((r) => r.path.endsWith('/feedback'));
    expect(feedback?.body).toMatchObject({ rating: 'down' });
  });

  it('answers with the friendly text when Parley fails, and keeps serving', async () => {
    parley.overrideNextChats({ status: 400, body: { error: { code: 'INVALID_REQUEST', message: 'bad' } } });
    dispatch(slashCommandPayload({ question: 'Broken?', token: 'gw-err' }));
    const edit = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/gw-err/'));
    expect((edit.body as { content: string }).content).toMatch(/^Sorry, I couldn't process that question/);

    dispatch(slashCommandPayload({ question: 'Fine now?', token: 'gw-ok' }));
    const ok = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/gw-ok/'));
    expect((ok.body as { embeds: unknown[] }).embeds).toHaveLength(1);
  });
});
