import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { setupShop } from '../../test/fixtures.js';
import { client } from '../../test/http.js';
import { startServer, type TestServer } from '../../test/test-server.js';
import { LOCALES } from '../i18n/locales.js';
import { MAX_WIDGET_TEXT_LENGTH, WIDGET_TEXT_KEYS } from '../i18n/texts.js';

// docs/api-spec.md §12: the widget's texts and direction come from its config, in the assistant's language.
const SITE = 'https://www.shop.example';
let server: TestServer;
beforeEach(async () => {
  server = await startServer();
});
afterEach(async () => {
  await server.close();
});

async function shopIn(language: string, overrides: Record<string, unknown> = {}) {
  const widget = { allowedOrigins: [SITE], ...(overrides.widget as object | undefined) };
  const shop = await setupShop(server.url, { type: 'web', language, ...overrides, widget });
  const site = client(server.url);
  const headers = { origin: SITE };
  return {
    ...shop,
    config: async () => (await site.get(`/v1/widget/${shop.assistantId}/config`, { headers })).body.data,
    wpost: (p: string, body: unknown) => site.post(`/v1/widget/${shop.assistantId}${p}`, body, { headers }),
  };
}

describe("widget texts in the assistant's language (API.md §12)", () => {
  it('serves German texts, left to right, with every key', async () => {
    const c = await (await shopIn('de')).config();
    expect(c.language).toBe('de');
    expect(c.dir).toBe('ltr');
    expect(Object.keys(c.strings).sort()).toEqual([...WIDGET_TEXT_KEYS].sort());
    expect(c.strings).toEqual(LOCALES.de!.widget);
    expect(c.strings.send).toBe('Senden');
    // The defaults of the schema are English; the config shows the language's own.
    expect(c.welcomeMessage).toBe(LOCALES.de!.defaults.welcome);
    expect(c.handoff.message).toBe(LOCALES.de!.defaults.handoff);
  });

  it('serves right-to-left Arabic for a regional tag', async () => {
    const c = await (await shopIn('ar-EG')).config();
    expect(c.dir).toBe('rtl');
    expect(c.strings.placeholder).toBe(LOCALES.ar!.widget.placeholder);
  });

  it('resolves pt-BR and zh-Hans to their language, and an unknown language to English', async () => {
    expect((await (await shopIn('pt-BR')).config()).strings.send).toBe('Enviar');
    expect((await (await shopIn('zh-Hans')).config()).strings.send).toBe('发送');
    const swahili = await (await shopIn('sw')).config();
    expect(swahili).toMatchObject({ language: 'sw', dir: 'ltr', strings: LOCALES.en!.widget });
  });

  it("merges the owner's own texts over the language's, and a null patch gives the default back", async () => {
    const shop = await shopIn('fr', {
      widget: { strings: { send: 'Go', talkToHuman: '  Parler à Camille  ' }, welcomeMessage: 'Salut !' },
    });
    let c = await shop.config();
    expect(c.strings.send).toBe('Go');
    expect(c.strings.talkToHuman).toBe('Parler à Camille');
    expect(c.strings.close).toBe(LOCALES.fr!.widget.close);
    expect(c.welcomeMessage).toBe('Salut !'); // the owner's own message stays as written
    const patched = await shop.api.patch(`/v1/assistants/${shop.assistantId}`, { widget: { strings: { send: null } } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.widget.strings).toEqual({ talkToHuman: 'Parler à Camille' });
    c = await shop.config();
    expect(c.strings.send).toBe('Envoyer');
    expect(c.strings.talkToHuman).toBe('Parler à Camille');
  });

  it('rejects unknown keys, empty and over-long texts with a 400 naming the field, and changes nothing', async () => {
    const shop = await shopIn('de', { widget: { strings: { send: 'Los' } } });
    const path = `/v1/assistants/${shop.assistantId}`;
    const cases: [unknown, RegExp][] = [
      [{ sendd: 'x' }, /widget\.strings.*sendd/],
      [{ send: '' }, /widget\.strings\.send/],
      [{ send: '   ' }, /widget\.strings\.send/],
      [{ send: 'x'.repeat(MAX_WIDGET_TEXT_LENGTH + 1) }, new RegExp(`widget\\.strings\\.send.*${MAX_WIDGET_TEXT_LENGTH}`)],
      [{ placeholder: 42 }, /widget\.strings\.placeholder/],
      ['Los', /widget\.strings/],
    ];
    for (const [strings, field] of cases) {
      const res = await shop.api.patch(path, { widget: { strings } });
      expect(res.status, JSON.stringify(strings)).toBe(400);
      expect(res.body.error.code).toBe('validation_error');
      expect(res.body.error.message).toMatch(field);
    }
    const created = await shop.api.post('/v1/assistants', { type: 'web', name: 'X', widget: { strings: { nope: 'x' } } });
    expect(created.status).toBe(400);
    expect(created.body.error.message).toMatch(/widget\.strings/);
    expect((await shop.config()).strings.send).toBe('Los');
    const atLimit = await shop.api.patch(path, { widget: { strings: { send: 'x'.repeat(MAX_WIDGET_TEXT_LENGTH) } } });
    expect(atLimit.status).toBe(200);
  });

  it("answers a fallback and a handoff in the assistant's language unless the owner wrote their own", async () => {
    const shop = await shopIn('es', { fallback: { handoff: { enabled: true } } });
    const d = (await shop.wpost('/chat', { message: 'Do you sell gift cards for international orders?' })).body.data;
    expect(d.fallback).toBe(true);
    expect(d.response).toBe(LOCALES.es!.defaults.fallback);
    expect(d.handoff.message).toBe(LOCALES.es!.defaults.handoff);
    const handoff = await shop.wpost('/handoff', { sessionId: d.sessionId });
    expect(handoff.body.data.message).toBe(LOCALES.es!.widget.handoffRequested);
    // An API client gets one text: the suggestions line in Spanish too.
    const api = await shop.keyApi.post(shop.chatPath, {
      message: 'Do you sell gift cards for international orders?',
      sessionId: 'api-es-1',
    });
    expect(api.body.response).toContain(LOCALES.es!.defaults.fallback);
    expect(api.body.response).toContain('Puedes preguntar sobre:');
    expect(api.body.response).not.toContain('You could ask about');

    const own = await shopIn('es', { fallback: { message: 'No lo sé, escribe a hola@shop.example.' } });
    const mine = (await own.wpost('/chat', { message: 'Do you sell gift cards for international orders?' })).body.data;
    expect(mine.response).toBe('No lo sé, escribe a hola@shop.example.');
  });

  it("gives the connectors their texts in the assistant's language, the owner's overrides included", async () => {
    const shop = await shopIn('ja', { widget: { strings: { sources: '参考リンク' } } });
    const res = await shop.keyApi.get(`/v1/integrations/${shop.assistantId}/texts`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ language: 'ja', textLanguage: 'ja', dir: 'ltr' });
    expect(res.body.data.strings).toMatchObject({
      sources: '参考リンク',
      timeout: LOCALES.ja!.connector.timeout,
      error: LOCALES.ja!.widget.error,
    });
    const other = await client(server.url).get(`/v1/assistants/${shop.assistantId}/texts`);
    expect(other.status).toBe(401);
  });
});

describe("GET /v1/assistants/:id/texts?language= (the dashboard's defaults for a language not saved yet)", () => {
  it("answers another language's texts and its defaults, and names a bad tag", async () => {
    const shop = await shopIn('en', { widget: { strings: { send: 'Go' } } });
    const path = `/v1/assistants/${shop.assistantId}/texts`;
    const he = (await shop.api.get(`${path}?language=he-IL`)).body.data;
    expect(he).toMatchObject({ language: 'he-IL', textLanguage: 'he', dir: 'rtl' });
    expect(he.defaults.send).toBe(LOCALES.he!.widget.send);
    expect(he.strings.send).toBe('Go');
    const bad = await shop.api.get(`${path}?language=not a tag`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^language:/);
  });
});
