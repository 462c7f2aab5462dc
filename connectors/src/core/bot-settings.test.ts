import { describe, expect, it } from 'vitest';
import { isChannelActive, parseBotSettings } from './bot-settings.js';
import { parseBotTexts, parseTextLocalizations } from './texts.js';
import { LOCALES } from '../../../server/src/i18n/locales.js';

describe('bot settings', () => {
  it('reads the documented shape', () => {
    const settings = parseBotSettings({
      name: 'Acme Help',
      discord: { botName: 'AcmeBot', description: 'Ask Acme', avatarUrl: 'https://x/a.png', command: 'ask', channels: ['1'] },
      slack: { botName: 'AcmeBot', command: '/acme', channels: ['C1'] },
      teams: { botName: 'AcmeBot', channels: [] },
    });
    expect(settings.discord).toEqual({
      botName: 'AcmeBot',
      description: 'Ask Acme',
      avatarUrl: 'https://x/a.png',
      command: 'ask',
      channels: ['1'],
      descriptionLocalizations: {},
      optionDescription: 'What do you want to know?',
      optionLocalizations: {},
    });
    expect(settings.slack).toEqual({ botName: 'AcmeBot', command: '/acme', channels: ['C1'] });
    expect(settings.teams).toEqual({ botName: 'AcmeBot', channels: [] });
  });

  it('falls back to the defaults when the record lacks or garbles them', () => {
    const settings = parseBotSettings({ name: 'Acme Help', discord: { command: 42, channels: 'all' }, slack: null });
    expect(settings.discord.command).toBe('ask');
    expect(settings.discord.channels).toEqual([]);
    expect(settings.discord.botName).toBe('Acme Help');
    expect(settings.slack.command).toBe('/parley');
    expect(settings.teams.botName).toBe('Acme Help');
  });

  it("describes the Discord command in the assistant's language, and in every language while it is Parley's own text", () => {
    const texts = parseBotTexts({ strings: LOCALES.it!.connector });
    const localizations = parseTextLocalizations({
      localizations: {
        askCommand: { en: 'Ask {name} a question', de: 'Stellen Sie {name} eine Frage' },
        askOption: { de: 'Was?', 'x-bad': 'no', fr: '' },
      },
    });
    const parley = parseBotSettings({ name: 'Acme Help', description: null }, texts, localizations).discord;
    expect(parley.description).toBe('Fai una domanda a Acme Help');
    expect(parley.descriptionLocalizations).toEqual({ en: 'Ask Acme Help a question', de: 'Stellen Sie Acme Help eine Frage' });
    expect(parley.optionDescription).toBe('Cosa vuoi sapere?');
    expect(parley.optionLocalizations).toEqual({ de: 'Was?' });
    const owners = parseBotSettings({ name: 'Acme Help', description: 'Domande sul negozio' }, texts, localizations).discord;
    expect(owners.description).toBe('Domande sul negozio');
    expect(owners.descriptionLocalizations).toEqual({});
  });

  it('normalises command names to what each platform accepts', () => {
    expect(parseBotSettings({ discord: { command: '/Ask Me' } }).discord.command).toBe('ask-me');
    expect(parseBotSettings({ slack: { command: 'Acme' } }).slack.command).toBe('/acme');
  });

  it('treats an empty channel list as every channel, and matches ids or names', () => {
    expect(isChannelActive([], ['anything'])).toBe(true);
    expect(isChannelActive(['C1'], ['C1', 'general'])).toBe(true);
    expect(isChannelActive(['#General'], ['C1', 'general'])).toBe(true);
    expect(isChannelActive(['C2'], ['C1', 'general'])).toBe(false);
    expect(isChannelActive(['C2'], [undefined, null, ''])).toBe(false);
  });
});
