import { describe, expect, it } from 'vitest';
import { isChannelActive, parseBotSettings } from './bot-settings.js';

describe('bot settings', () => {
  it('reads the documented shape', () => {
    const settings = parseBotSettings({
      name: 'Acme Help',
      discord: { botName: 'AcmeBot', description: 'Ask Acme', avatarUrl: 'https://x/a.png', command: 'ask', channels: ['1'] },
      slack: { botName: 'AcmeBot', command: '/acme', channels: ['C1'] },
      teams: { botName: 'AcmeBot', channels: [] },
    });
    expect(settings.discord).toEqual({ botName: 'AcmeBot', description: 'Ask Acme', avatarUrl: 'https://x/a.png', command: 'ask', channels: ['1'] });
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
