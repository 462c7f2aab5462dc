import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestServer, type Server } from '../../e2e/support.js';
import type { ApiClient } from '../lib/api.js';
import {
  createAssistantEditorModel,
  formsFrom,
  insertAt,
  numberOrText,
  patchFor,
  placeholderChips,
  widgetOverrides,
} from './assistant-editor.model.js';
import type { Assistant } from './assistants.types.js';
import { LOCALES } from '../../../server/src/i18n/locales.js';

// The editor's model against a real server (demo seeded): each section saves with PATCH, a
// refused save keeps what was typed and names the field, warnings come back from the API.

let server: Server;
let api: ApiClient;
let assistantId: string;

beforeAll(async () => {
  server = await startTestServer();
  api = clientFor(server);
  assistantId = (await api.post<Assistant>('/assistants', { name: 'Editor test', type: 'web' })).id;
});
afterAll(async () => {
  await server?.close();
});

async function loaded() {
  const m = createAssistantEditorModel(api, assistantId);
  await m.load();
  expect(m.forms.value).not.toBeNull();
  return m;
}

describe('assistant editor model', () => {
  it('fills every section from the saved assistant', async () => {
    const m = await loaded();
    const f = m.forms.value!;
    expect(f.general.name).toBe('Editor test');
    expect(f.model.provider).toBe('extractive');
    expect(f.behaviour).toEqual({
      historyLimit: '10',
      maxResponseLength: '2000',
      confidenceThreshold: String(m.assistant.data.value!.confidenceThreshold),
    });
    expect(f.prompt.systemPrompt).toContain('{{knowledge}}');
    expect(f.widget.theme).toBe('light');
  });

  it('a refused save keeps the typed value and puts the server message at its field', async () => {
    const m = await loaded();
    m.edit('behaviour', { confidenceThreshold: '1.5', historyLimit: 'ten' });
    expect(await m.save('behaviour')).toBe(false);
    expect(m.subs.behaviour.fieldError('confidenceThreshold')).toMatch(/1/);
    expect(m.subs.behaviour.fieldError('historyLimit')).toBeTruthy();
    expect(m.forms.value!.behaviour.confidenceThreshold).toBe('1.5');
    expect(m.forms.value!.behaviour.historyLimit).toBe('ten');
    // Nothing was saved.
    expect((await api.get<Assistant>(`/assistants/${assistantId}`)).historyLimit).toBe(10);
  });

  it('an invalid base URL is refused at model.baseUrl and the other sections keep their unsaved edits', async () => {
    const m = await loaded();
    m.edit('general', { description: 'typed, not saved yet' });
    m.edit('model', { provider: 'openai', baseUrl: 'not a url' });
    expect(await m.save('model')).toBe(false);
    expect(m.subs.model.fieldError('model.baseUrl')).toMatch(/http/);
    expect(m.forms.value!.model.baseUrl).toBe('not a url');
    expect(m.forms.value!.general.description).toBe('typed, not saved yet');
    expect([m.dirty('general'), m.dirty('model'), m.dirty('prompt')]).toEqual([true, true, false]);
  });

  it('saves one section with only its fields, and refreshes that section from the server', async () => {
    const m = await loaded();
    m.edit('general', { name: 'Renamed', description: 'unsaved' });
    m.edit('behaviour', { historyLimit: '4', maxResponseLength: '900', confidenceThreshold: '0.5' });
    expect(await m.save('behaviour')).toBe(true);
    const saved = await api.get<Assistant>(`/assistants/${assistantId}`);
    expect([saved.historyLimit, saved.maxResponseLength, saved.confidenceThreshold]).toEqual([4, 900, 0.5]);
    expect(saved.name).toBe('Editor test');
    expect(m.forms.value!.general.name).toBe('Renamed');
    expect([m.dirty('behaviour'), m.dirty('general')]).toEqual([false, true]);
  });

  it('shows the API warnings for an unknown placeholder in the prompt', async () => {
    const m = await loaded();
    m.edit('prompt', { systemPrompt: 'Hi {{company}} {{knowledge}}', variables: [{ key: 'product', value: 'Parley' }] });
    expect(await m.save('prompt')).toBe(true);
    expect(m.warnings.value.join(' ')).toContain('{{company}}');
    const saved = await api.get<Assistant>(`/assistants/${assistantId}`);
    expect(saved.variables).toMatchObject({ product: 'Parley' });
  });

  it('removing a variable removes it, and an emptied model setting is cleared', async () => {
    const m = await loaded();
    m.edit('prompt', {
      variables: [
        { key: 'keep', value: '1' },
        { key: 'drop', value: '2' },
      ],
    });
    expect(await m.save('prompt')).toBe(true);
    m.edit('prompt', { variables: m.forms.value!.prompt.variables.filter((v) => v.key !== 'drop') });
    expect(await m.save('prompt')).toBe(true);
    const saved = await api.get<Assistant>(`/assistants/${assistantId}`);
    expect(saved.variables).toEqual({ keep: '1' });
    expect(m.forms.value!.prompt.variables.map((v) => v.key)).toEqual(['keep']);

    m.edit('model', { provider: 'extractive', temperature: '0.5' });
    expect(await m.save('model')).toBe(true);
    expect((await api.get<Assistant>(`/assistants/${assistantId}`)).model.temperature).toBe(0.5);
    m.edit('model', { temperature: '' });
    expect(await m.save('model')).toBe(true);
    expect((await api.get<Assistant>(`/assistants/${assistantId}`)).model.temperature).toBeUndefined();
  });

  it('saves knowledge bases with priorities and the widget settings', async () => {
    const m = await loaded();
    m.edit('knowledge', { bases: [{ id: server.knowledgeBaseId, priority: 8 }] });
    expect(await m.save('knowledge')).toBe(true);
    m.edit('widget', {
      theme: 'custom',
      primary: '#ff0000',
      background: '#ffffff',
      text: '#111111',
      allowedOrigins: 'https://shop.example.com\nhttps://www.example.com',
    });
    expect(await m.save('widget')).toBe(true);
    const saved = await api.get<Assistant>(`/assistants/${assistantId}`);
    expect(saved.knowledgeBases).toEqual([{ id: server.knowledgeBaseId, priority: 8 }]);
    expect(saved.widget).toMatchObject({
      theme: 'custom',
      colors: { primary: '#ff0000', background: '#ffffff', text: '#111111' },
      allowedOrigins: ['https://shop.example.com', 'https://www.example.com'],
    });
    m.edit('widget', { allowedOrigins: 'https://ok.example.com\nshop.example.com/path' });
    expect(await m.save('widget')).toBe(false);
    expect(m.subs.widget.fieldError('widget.allowedOrigins')).toMatch(/origin/);
  });

  it('tests a message against unsaved templates', async () => {
    const m = await loaded();
    m.edit('templates', {
      items: [
        { trigger: 'opening hours', match: 'contains', response: 'We open at 9.' },
        { trigger: '^refund', match: 'regex', response: 'Refunds take 5 days.' },
      ],
    });
    m.testMessage.value = 'refund please';
    await m.testTemplates();
    expect(m.testResult.value?.match).toMatchObject({ trigger: '^refund', match: 'regex', response: 'Refunds take 5 days.' });
    m.testMessage.value = 'hello there';
    await m.testTemplates();
    expect(m.testResult.value).toEqual({ match: null });
    // A regex RE2 refuses is named at its template on save.
    m.edit('templates', { items: [{ trigger: '(a)\\1', match: 'regex', response: 'x' }] });
    expect(await m.save('templates')).toBe(false);
    expect(m.subs.templates.fieldError('templates.0.trigger')).toMatch(/RE2/);
  });

  it('saves fallback and channel settings', async () => {
    const m = await loaded();
    m.edit('fallback', { handoffEnabled: true, handoffEmail: 'help@example.com', handoffUrl: '' });
    m.edit('channels', { discordBotName: 'Helper', discordChannels: '123, 456', slackCommand: 'parley' });
    expect(await m.save('fallback')).toBe(true);
    expect(await m.save('channels')).toBe(false);
    expect(m.subs.channels.fieldError('slack.command')).toMatch(/slash command/);
    m.edit('channels', { slackCommand: '/ask-us' });
    expect(await m.save('channels')).toBe(true);
    const saved = await api.get<Assistant>(`/assistants/${assistantId}`);
    expect(saved.fallback.handoff).toMatchObject({ enabled: true, email: 'help@example.com' });
    expect(saved.discord).toMatchObject({ botName: 'Helper', channels: ['123', '456'] });
    expect(saved.slack.command).toBe('/ask-us');
  });

  it('uploads an avatar and refuses an SVG', async () => {
    const m = await loaded();
    // The smallest valid PNG (1×1).
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
    await m.uploadAvatar(new File([png], 'a.png', { type: 'image/png' }));
    expect(m.avatarUpload.error.value).toBeNull();
    expect(m.forms.value!.general.avatarUrl).toMatch(/\/v1\/assets\//);
    const res = await fetch(m.forms.value!.general.avatarUrl);
    expect(res.headers.get('content-type')).toBe('image/png');
    await m.uploadAvatar(new File(['<svg xmlns="http://www.w3.org/2000/svg"/>'], 'a.svg', { type: 'image/svg+xml' }));
    expect(m.avatarUpload.error.value?.kind).toBe('validation');
  });

  it('creates a key bound to the assistant (chat only), shown once, then listed without it', async () => {
    const m = await loaded();
    m.newKey.name.value = 'Backend';
    m.newKey.allowedIps.value = '203.0.113.7, 10.0.0.0/8';
    m.newKey.perMinute.value = '30';
    expect(await m.createKey()).toBe(true);
    expect(m.createdKey.value?.key).toMatch(/^sk_/);
    expect(m.createdKey.value).toMatchObject({
      permissions: ['chat'],
      assistantId,
      allowedIps: ['203.0.113.7', '10.0.0.0/8'],
      rateLimit: { perMinute: 30 },
    });
    expect(m.keys.data.value?.map((k) => k.name)).toEqual(['Backend']);
    expect(m.keys.data.value?.[0]?.key).toBeUndefined();
    m.newKey.name.value = 'Bad';
    m.newKey.allowedIps.value = 'not-an-ip';
    expect(await m.createKey()).toBe(false);
    expect(m.keyCreation.fieldError('allowedIps')).toBeTruthy();
    expect(m.newKey.allowedIps.value).toBe('not-an-ip');
  });

  it('deletes the assistant', async () => {
    const extra = await api.post<Assistant>('/assistants', { name: 'To delete', type: 'api' });
    const m = createAssistantEditorModel(api, extra.id);
    await m.load();
    expect(await m.remove()).toBe(true);
    await expect(api.get(`/assistants/${extra.id}`)).rejects.toMatchObject({ kind: 'not_found' });
  });
});

describe('editor helpers', () => {
  it('turns typed numbers into numbers and leaves the rest for the server to name', () => {
    expect(numberOrText(' 0.7 ')).toBe(0.7);
    expect(numberOrText('abc')).toBe('abc');
    expect(numberOrText('')).toBe('');
  });

  it('builds each section patch from its form only', async () => {
    const a = await api.get<Assistant>(`/assistants/${server.assistantId}`);
    const f = formsFrom(a);
    expect(Object.keys(patchFor('general', f.general)).sort()).toEqual(['avatarUrl', 'description', 'language', 'name']);
    expect(patchFor('model', { provider: 'openai', name: ' gpt ', temperature: '0.2', baseUrl: '' })).toEqual({
      model: { provider: 'openai', name: 'gpt', temperature: 0.2, baseUrl: null },
    });
    expect(widgetOverrides({ ...f.widget, theme: 'dark' })).toMatchObject({ theme: 'dark', colors: null });
  });

  it('inserts a placeholder at the cursor and lists the variable chips', () => {
    expect(insertAt('Hello world', 6, 6, '{{name}} ')).toEqual({ value: 'Hello {{name}} world', cursor: 15 });
    expect(insertAt('abc', 1, 2, 'X')).toEqual({ value: 'aXc', cursor: 2 });
    expect(
      placeholderChips([
        { key: 'company', value: 'A' },
        { key: 'bad name', value: '' },
      ]),
    ).toEqual(['knowledge', 'assistant_name', 'company']);
  });
});

describe('widget texts and language (issue 25)', () => {
  it('saves an override, clears it back to the default with an empty field, and names a too-long one', async () => {
    const m = await loaded();
    m.edit('widget', { strings: { ...m.forms.value!.widget.strings, send: 'Los', placeholder: '' } });
    expect(await m.save('widget')).toBe(true);
    expect(m.assistant.data.value!.widget.strings).toEqual({ send: 'Los' });
    expect(m.forms.value!.widget.strings.send).toBe('Los');
    m.edit('widget', { strings: { ...m.forms.value!.widget.strings, send: '  ' } });
    expect(await m.save('widget')).toBe(true);
    expect(m.assistant.data.value!.widget.strings).toEqual({});
    m.edit('widget', { strings: { ...m.forms.value!.widget.strings, retry: 'x'.repeat(201) } });
    expect(await m.save('widget')).toBe(false);
    expect(m.subs.widget.fieldError('widget.strings.retry')).toMatch(/200/);
    expect(m.forms.value!.widget.strings.retry).toHaveLength(201); // what was typed stays
  });

  it('loads the defaults of a language for the placeholders, also one not saved yet', async () => {
    const m = await loaded();
    await m.loadTextDefaults('ar');
    expect(m.textDefaults.value).toMatchObject({ language: 'ar', texts: { send: 'إرسال' } });
    await m.loadTextDefaults('not a tag');
    expect(m.textDefaults.value).toBeNull();
  });

  it('shows the default messages of a newly saved language in the untouched sections, and keeps unsaved edits', async () => {
    const own = (await api.post<Assistant>('/assistants', { name: 'Language switch', type: 'web', language: 'de' })).id;
    const m = createAssistantEditorModel(api, own);
    await m.load();
    expect(m.forms.value!.fallback.message).toBe(LOCALES.de!.defaults.fallback);
    expect(m.forms.value!.widget.welcomeMessage).toBe(LOCALES.de!.defaults.welcome);
    await m.loadDefaultMessages('de');
    expect(m.defaultMessages.value).toEqual({ language: 'de', dir: 'ltr', messages: LOCALES.de!.defaults });

    m.edit('widget', { theme: 'dark' }); // typed, not saved
    m.edit('general', { language: 'he' });
    expect(await m.save('general')).toBe(true);
    expect(m.forms.value!.fallback.message).toBe(LOCALES.he!.defaults.fallback);
    expect(m.forms.value!.fallback.handoffMessage).toBe(LOCALES.he!.defaults.handoff);
    expect(m.dirty('fallback')).toBe(false);
    // The touched section keeps what was typed, welcome message included (saving it keeps a default a default).
    expect(m.forms.value!.widget.theme).toBe('dark');
    expect(m.forms.value!.widget.welcomeMessage).toBe(LOCALES.de!.defaults.welcome);
    expect(await m.save('widget')).toBe(true);
    expect(m.forms.value!.widget.welcomeMessage).toBe(LOCALES.he!.defaults.welcome);
  });

  it("gives the live preview only the owner's texts, to lay over the language's", async () => {
    const m = await loaded();
    const strings = { ...m.forms.value!.widget.strings, send: ' Go ', close: '' };
    expect(widgetOverrides({ ...m.forms.value!.widget, strings }).strings).toEqual({ send: 'Go' });
  });
});
