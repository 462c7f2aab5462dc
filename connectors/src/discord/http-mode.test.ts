import { REST } from '@discordjs/rest';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMemoryLogger } from '../core/logger.js';
import { createParleyClient } from '../core/parley-client.js';
import { startSettingsWatcher, type SettingsWatcher } from '../core/settings-watcher.js';
import {
  buttonPayload,
  createDiscordTestKeys,
  IDS,
  signDiscordRequest,
  slashCommandPayload,
} from '../test-support/discord-interactions.js';
import { startFakeDiscordApi, type FakeDiscordApi } from '../test-support/fake-discord-api.js';
import { startParleyUnderTest, type ParleyUnderTest } from '../test-support/parley-under-test.js';
import { createDiscordConnector, type DiscordConnector } from './connector.js';
import { LOCALES } from '../../../server/src/i18n/locales.js';

/**
 * DISCORD_MODE=http end to end: signed interactions into our endpoint, the answer PATCHed to a
 * local fake of Discord's REST API by @discordjs/rest, Parley answering for real.
 */
describe('discord connector, http mode', () => {
  const keys = createDiscordTestKeys();
  let parley: ParleyUnderTest;
  let discord: FakeDiscordApi;
  let settings: SettingsWatcher;
  let connector: DiscordConnector;
  let endpoint: string;
  const logger = createMemoryLogger();

  beforeEach(async () => {
    parley = await startParleyUnderTest();
    discord = await startFakeDiscordApi();
    const client = createParleyClient({
      baseUrl: parley.url,
      apiKey: parley.apiKey,
      assistantId: parley.assistantId,
      sleep: async () => {},
    });
    settings = await startSettingsWatcher({ parley: client, intervalMs: 0, logger });
    connector = createDiscordConnector({
      mode: 'http',
      parley: client,
      settings,
      logger,
      rest: new REST({ api: discord.apiUrl, retries: 0 }).setToken('bot-token'),
      applicationId: IDS.application,
      guildId: IDS.guild,
      publicKey: keys.publicKeyHex,
      port: 0,
      host: '127.0.0.1',
    });
    const { port } = await connector.start();
    endpoint = `http://127.0.0.1:${port}/interactions`;
  });

  afterEach(async () => {
    await connector.stop();
    await discord.close();
    await parley.close();
  });

  async function post(payload: unknown, opts: { timestamp?: number; tamper?: boolean; headers?: Record<string, string> } = {}) {
    const body = JSON.stringify(payload);
    const headers = opts.headers ?? signDiscordRequest(keys.privateKey, body, opts.timestamp ?? Math.floor(Date.now() / 1000));
    const sent = opts.tamper ? body.replace('"type":', '"type" :') : body;
    const res = await fetch(endpoint, { method: 'POST', headers, body: sent });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }

  it('registers /ask with a required question option on the guild, with the bot token', async () => {
    const put = discord.calls().find((c) => c.method === 'PUT');
    expect(put?.path).toBe(`/applications/${IDS.application}/guilds/${IDS.guild}/commands`);
    expect(put?.headers.authorization).toBe('Bot bot-token');
    expect(put?.body).toEqual([
      expect.objectContaining({
        name: 'ask',
        type: 1,
        options: [expect.objectContaining({ name: 'question', type: 3, required: true })],
      }),
    ]);
  });

  it('answers PING with PONG', async () => {
    expect(await post({ type: 1, id: '1', application_id: IDS.application, token: 't', version: 1 })).toEqual({
      status: 200,
      body: { type: 1 },
    });
  });

  it('rejects a bad signature, a missing one and a stale timestamp with 401', async () => {
    const ping = { type: 1, id: '1', application_id: IDS.application, token: 't', version: 1 };
    expect((await post(ping, { tamper: true })).status).toBe(401);
    expect((await post(ping, { headers: { 'content-type': 'application/json' } })).status).toBe(401);
    const other = createDiscordTestKeys();
    const body = JSON.stringify(ping);
    const forged = signDiscordRequest(other.privateKey, body, Math.floor(Date.now() / 1000));
    expect((await post(ping, { headers: forged })).status).toBe(401);
    // Correctly signed, but ten minutes old: a replay.
    expect((await post(ping, { timestamp: Math.floor(Date.now() / 1000) - 600 })).status).toBe(401);
    expect(parley.chatRequests()).toHaveLength(0);
  });

  it('defers a command, then PATCHes the answer with numbered sources and feedback buttons', async () => {
    const res = await post(slashCommandPayload({ question: 'How do I create an API key?', token: 'tok-answer' }));
    expect(res).toEqual({ status: 200, body: { type: 5 } });

    const patch = await discord.waitFor(
      (r) => r.method === 'PATCH' && r.path === `/api/v10/webhooks/${IDS.application}/tok-answer/messages/@original`,
    );
    // The interaction token is the credential; the bot token must not leak to the webhook route.
    expect(patch.headers.authorization).toBeUndefined();
    const message = patch.body as {
      embeds: { description: string; author?: { name: string } }[];
      components: { components: { custom_id: string }[] }[];
      allowed_mentions: unknown;
    };
    const [exchange] = parley.chatExchanges();
    expect(exchange?.response.sources.length).toBeGreaterThan(0);
    const first = exchange?.response.sources[0];
    expect(message.embeds[0]?.description).toBe(
      `${exchange?.response.response}\n\n**Sources**\n${exchange?.response.sources.map((s, i) => `${i + 1}. [${s.title}](${s.url})`).join('\n')}`,
    );
    expect(message.embeds[0]?.description).toContain(`1. [${first?.title}](${first?.url})`);
    expect(message.allowed_mentions).toEqual({ parse: [] });
    const ids = message.components[0]?.components.map((b) => b.custom_id) ?? [];
    expect(ids).toHaveLength(2);
    expect(ids[0]).toMatch(/^pf\|up\|/);
    expect(ids[1]).toMatch(/^pf\|down\|/);

    const chat = exchange!.request;
    expect(chat.message).toBe('How do I create an API key?');
    expect(chat.sessionId).toBe(`discord:${IDS.channel}:${IDS.user}`);
    expect(chat.metadata).toMatchObject({ source: 'discord', userId: IDS.user, guildId: IDS.guild, channelId: IDS.channel });
    expect(parley.chatRequests()[0]?.headers.authorization).toBe(`Bearer ${parley.apiKey}`);
  });

  it('posts 👍 feedback for the answer when the button is clicked, and thanks privately', async () => {
    await post(slashCommandPayload({ question: 'How do I install it?', token: 'tok-q' }));
    const patch = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/tok-q/'));
    const upId = (patch.body as { components: { components: { custom_id: string }[] }[] }).components[0]?.components[0]?.custom_id ?? '';

    const res = await post(buttonPayload({ customId: upId, token: 'tok-fb' }));
    expect(res).toEqual({ status: 200, body: { type: 5, data: { flags: 64 } } });
    const thanks = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/tok-fb/'));
    expect((thanks.body as { content: string }).content).toBe('Thanks for your feedback!');

    const feedback = parley.requests.find((r) => r.path.endsWith('/feedback'));
    expect(feedback?.path).toBe(`/v1/conversations/discord:${IDS.channel}:${IDS.user}/feedback`);
    expect(feedback?.body).toMatchObject({ rating: 'up' });
    expect(typeof (feedback?.body as { messageId: unknown }).messageId).toBe('string');
  });

  it('says "busy" when Parley stays rate limited, and never crashes', async () => {
    parley.overrideNextChats(
      ...Array.from({ length: 3 }, () => ({
        status: 429,
        headers: { 'retry-after': '1' },
        body: { error: { code: 'RATE_LIMITED', message: 'Too many requests' } },
      })),
    );
    await post(slashCommandPayload({ question: 'Anyone there?', token: 'tok-busy' }));
    const patch = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/tok-busy/'));
    expect((patch.body as { content: string }).content).toBe(LOCALES.en!.widget.rateLimited);
    expect(parley.chatRequests()).toHaveLength(3);
    // Still serving afterwards.
    await post(slashCommandPayload({ question: 'How do I embed the chat widget?', token: 'tok-after' }));
    const after = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/tok-after/'));
    const served = parley.chatExchanges().at(-1);
    expect(served?.status).toBe(200);
    expect((after.body as { embeds: { description: string }[] }).embeds[0]?.description.startsWith(served?.response.response ?? '?')).toBe(
      true,
    );
  });

  it('does not answer in a channel the settings leave out, without a restart', async () => {
    await parley.patchAssistant({ discord: { channels: ['999999999999999999'] } });
    expect(await settings.refresh()).toBe(true);
    const res = await post(slashCommandPayload({ question: 'Hello?' }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect(parley.chatRequests()).toHaveLength(0);

    // By name works too, as admins copy whichever they see.
    await parley.patchAssistant({ discord: { channels: ['#General'] } });
    await settings.refresh();
    expect((await post(slashCommandPayload({ question: 'Hello?' }))).body).toEqual({ type: 5 });
  });

  it('re-registers the command when its name changes in the settings', async () => {
    await parley.patchAssistant({ discord: { command: 'question' } });
    await settings.refresh();
    const puts = discord.calls().filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect((puts[1]?.body as { name: string }[])[0]?.name).toBe('question');
    // The old name now gets a private pointer instead of an answer.
    const res = await post(slashCommandPayload({ question: 'Hi', command: 'ask' }));
    expect(res.body).toMatchObject({ type: 4, data: { flags: 64 } });
    expect((await post(slashCommandPayload({ question: 'Hi', command: 'question' }))).body).toEqual({ type: 5 });
  });

  it("speaks the assistant's language: command texts in every Discord locale, channel and command notices, an empty answer (issue 25)", async () => {
    const de = LOCALES.de!.connector;
    const name = settings.current().assistantName;
    // Without a description of the owner's, the command's is Parley's own, in every language.
    await parley.patchAssistant({ language: 'de-CH', description: null });
    expect(await settings.refresh()).toBe(true);
    // A language change re-registers the command, which the (validating) fake Discord accepted.
    const puts = discord.calls().filter((c) => c.method === 'PUT');
    expect(puts).toHaveLength(2);
    expect(discord.requests.filter((r) => r.method === 'PUT').length).toBe(2);
    expect(logger.entries.filter((e) => e.msg === 'could not re-register the discord command')).toEqual([]);
    type Registered = {
      description: string;
      description_localizations?: Record<string, string>;
      options: { description: string; description_localizations?: Record<string, string> }[];
    };
    const [command] = puts[1]?.body as Registered[];
    expect(command?.description).toBe(de.askCommand.replace('{name}', name));
    expect(command?.options[0]?.description).toBe(de.askOption);
    const optionLocales = command?.options[0]?.description_localizations ?? {};
    // Each reader sees the option in the language of their Discord client, under Discord's own locale codes.
    expect(optionLocales).toMatchObject({
      'en-US': LOCALES.en!.connector.askOption,
      'en-GB': LOCALES.en!.connector.askOption,
      'pt-BR': LOCALES.pt!.connector.askOption,
      'es-ES': LOCALES.es!.connector.askOption,
      'es-419': LOCALES.es!.connector.askOption,
      'zh-CN': LOCALES.zh!.connector.askOption,
      fr: LOCALES.fr!.connector.askOption,
      th: LOCALES.th!.connector.askOption,
      ja: LOCALES.ja!.connector.askOption,
    });
    // Discord has no Arabic, Hebrew or Persian locale; Parley has no Swedish texts.
    expect(Object.keys(optionLocales)).toHaveLength(23);
    for (const absent of ['ar', 'he', 'fa', 'sv-SE', 'en', 'pt', 'zh']) expect(Object.keys(optionLocales)).not.toContain(absent);
    expect(command?.description_localizations?.['en-US']).toBe(`Ask ${name} a question`);
    expect(command?.description_localizations?.ru).toBe(LOCALES.ru!.connector.askCommand.replace('{name}', name));

    // The owner's own description has no translations: it is sent as written, without localizations.
    await parley.patchAssistant({ discord: { description: 'Fragen zu unserem Shop' } });
    await settings.refresh();
    const [own] = discord
      .calls()
      .filter((c) => c.method === 'PUT')
      .at(-1)?.body as Registered[];
    expect(own?.description).toBe('Fragen zu unserem Shop');
    expect(own?.description_localizations).toBeUndefined();
    expect(own?.options[0]?.description).toBe(de.askOption);

    await parley.patchAssistant({ discord: { channels: ['999999999999999999'] } });
    await settings.refresh();
    const inactive = await post(slashCommandPayload({ question: 'Hallo?' }));
    expect(inactive.body).toMatchObject({
      type: 4,
      data: { content: de.notActive.replace('{name}', settings.current().discord.botName), flags: 64 },
    });

    await parley.patchAssistant({ discord: { channels: [], command: 'frage' } });
    await settings.refresh();
    const stale = await post(slashCommandPayload({ question: 'Hallo?', command: 'ask' }));
    expect(stale.body).toMatchObject({ type: 4, data: { content: de.commandGone, flags: 64 } });

    parley.overrideNextChats({ body: { response: '', sessionId: 's', confidence: 0, sources: [], messageId: 'm1' } });
    await post(slashCommandPayload({ question: 'Hallo?', command: 'frage', token: 'tok-empty' }));
    const empty = await discord.waitFor((r) => r.method === 'PATCH' && r.path.includes('/tok-empty/'));
    expect((empty.body as { embeds: { description: string }[] }).embeds[0]?.description).toBe(`_(${de.noAnswer})_`);
  });

  it('splits an answer longer than an embed into follow-up messages without losing text', async () => {
    const long = Array.from({ length: 900 }, (_, i) => `word${i}`).join(' ');
    parley.overrideNextChats({ body: { response: long, sessionId: 's', confidence: 0.5, sources: [], messageId: 'm1' } });
    await post(slashCommandPayload({ question: 'Tell me everything', token: 'tok-long' }));
    const follow = await discord.waitFor((r) => r.method === 'POST' && r.path.endsWith('/tok-long'));
    const first = discord.requests.find((r) => r.method === 'PATCH' && r.path.includes('/tok-long/'));
    const parts = [first, follow].map((r) => (r?.body as { embeds: { description: string }[] }).embeds[0]?.description ?? '');
    expect(parts[0]!.length).toBeLessThanOrEqual(4096);
    expect(parts.join('')).toBe(long);
    // Buttons go under the last part only.
    expect((first?.body as { components?: unknown }).components).toBeUndefined();
    expect((follow.body as { components: unknown[] }).components).toHaveLength(1);
  });
});
