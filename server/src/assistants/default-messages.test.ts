import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { LOCALES } from '../i18n/locales.js';

// Issue 25: an assistant that kept Parley's fallback, handoff and welcome messages shows them (in
// the API, hence the dashboard, and in chat) in its own language, and a language change switches them.
const SITE = 'https://www.shop.example';
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

const messagesOf = (a: { fallback: { message: string; handoff: { message: string } }; widget: { welcomeMessage: string } }) => ({
  fallback: a.fallback.message,
  handoff: a.fallback.handoff.message,
  welcome: a.widget.welcomeMessage,
});

describe("default messages follow the assistant's language", () => {
  it("reads the defaults in the assistant's language, and switches them with the language", async () => {
    const shop = await setupShop(server.url, { language: 'ja' });
    const path = `/v1/assistants/${shop.assistantId}`;
    const created = await shop.api.get(path);
    expect(messagesOf(created.body.data)).toEqual(LOCALES.ja!.defaults);
    expect((await shop.api.get('/v1/assistants')).body.data.map(messagesOf)).toEqual([LOCALES.ja!.defaults]);

    const patched = await shop.api.patch(path, { language: 'fr-CA' });
    expect(messagesOf(patched.body.data)).toEqual(LOCALES.fr!.defaults);
    expect(messagesOf((await shop.api.get(path)).body.data)).toEqual(LOCALES.fr!.defaults);
    // Chat answers with the same text at once (the store's cache was dropped by the write).
    const chat = await shop.keyApi.post(shop.chatPath, { message: 'Do you sell gift cards for international orders?', sessionId: 'fr-1' });
    expect(chat.body.response).toContain(LOCALES.fr!.defaults.fallback);

    // A language Parley has no texts for gets the English ones.
    expect(messagesOf((await shop.api.patch(path, { language: 'sw' })).body.data)).toEqual(LOCALES.en!.defaults);
  });

  it("keeps an owner's own message as written through a language change", async () => {
    const shop = await setupShop(server.url, { language: 'de', fallback: { message: 'Fragen Sie bitte unser Team.' } });
    const path = `/v1/assistants/${shop.assistantId}`;
    const a = (await shop.api.patch(path, { language: 'it' })).body.data;
    expect(a.fallback.message).toBe('Fragen Sie bitte unser Team.');
    expect(a.fallback.handoff.message).toBe(LOCALES.it!.defaults.handoff);
    expect(a.widget.welcomeMessage).toBe(LOCALES.it!.defaults.welcome);
  });

  it('treats a default sent back as it was shown (a saved form) as still the default', async () => {
    const shop = await setupShop(server.url, { type: 'web', language: 'pl', widget: { allowedOrigins: [SITE] } });
    const path = `/v1/assistants/${shop.assistantId}`;
    const shown = (await shop.api.get(path)).body.data;
    // The dashboard's Fallback and Widget sections send back what they showed.
    await shop.api.patch(path, { fallback: { message: shown.fallback.message, handoff: { message: shown.fallback.handoff.message } } });
    await shop.api.patch(path, { widget: { welcomeMessage: shown.widget.welcomeMessage } });
    expect(messagesOf((await shop.api.patch(path, { language: 'uk' })).body.data)).toEqual(LOCALES.uk!.defaults);
    const widget = await client(server.url).get(`/v1/widget/${shop.assistantId}/config`, { headers: { origin: SITE } });
    expect(widget.body.data.welcomeMessage).toBe(LOCALES.uk!.defaults.welcome);
  });

  it("gives the dashboard a language's default messages before it is saved, and the connectors every language's command texts", async () => {
    const shop = await setupShop(server.url, { language: 'en' });
    const texts = (await shop.api.get(`/v1/assistants/${shop.assistantId}/texts?language=ko`)).body.data;
    expect(texts.messages).toEqual(LOCALES.ko!.defaults);
    expect(Object.keys(texts.localizations.askOption).sort()).toEqual(Object.keys(LOCALES).sort());
    expect(texts.localizations.askOption.th).toBe(LOCALES.th!.connector.askOption);
    expect(texts.localizations.askCommand.de).toBe(LOCALES.de!.connector.askCommand);
  });
});
