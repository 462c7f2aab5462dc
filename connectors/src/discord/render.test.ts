import { describe, expect, it } from 'vitest';
import { parseBotSettings } from '../core/bot-settings.js';
import { createFeedbackIdCodec, CUSTOM_ID_LIMIT } from './feedback-id.js';
import { renderAnswer, renderNotice } from './render.js';

const settings = parseBotSettings({ name: 'Acme', discord: { botName: 'AcmeBot', avatarUrl: 'https://cdn.example/a.png' } }).discord;

describe('discord rendering', () => {
  it('renders one embed with author, sources, confidence and two feedback buttons', () => {
    const [message, ...rest] = renderAnswer(
      {
        response: 'Reset it in settings.',
        sessionId: 'discord:1:2',
        confidence: 0.834,
        sources: [{ title: 'Reset', url: 'https://d.example/r' }],
        messageId: 'm1',
      },
      settings,
      createFeedbackIdCodec(),
    );
    expect(rest).toHaveLength(0);
    expect(message?.embeds?.[0]).toMatchObject({
      description: 'Reset it in settings.\n\n**Sources**\n1. [Reset](https://d.example/r)',
      author: { name: 'AcmeBot', icon_url: 'https://cdn.example/a.png' },
      footer: { text: 'Confidence 83%' },
    });
    expect(message?.components?.[0]?.components).toHaveLength(2);
  });

  it('omits buttons when the server sent no messageId, and an invalid avatar URL', () => {
    const noAvatar = { ...settings, avatarUrl: 'not a url' };
    const [message] = renderAnswer({ response: 'x', sessionId: 's', confidence: 1, sources: [] }, noAvatar, createFeedbackIdCodec());
    expect(message?.components).toBeUndefined();
    expect(message?.embeds?.[0]?.author).toEqual({ name: 'AcmeBot' });
  });

  it('splits notices at 2000 characters, losslessly', () => {
    const text = 'word '.repeat(1000);
    const parts = renderNotice(text);
    expect(parts.length).toBe(3);
    expect(parts.every((p) => (p.content ?? '').length <= 2000)).toBe(true);
    expect(parts.map((p) => p.content).join('')).toBe(text);
  });
});

describe('feedback custom ids', () => {
  it('round-trips inline ids within Discord’s 100 characters', () => {
    const codec = createFeedbackIdCodec();
    const id = codec.encode({ rating: 'up', messageId: 'msg_01HZX3', sessionId: 'discord:222222222222222222:444444444444444444' });
    expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_LIMIT);
    expect(codec.decode(id)).toEqual({ rating: 'up', messageId: 'msg_01HZX3', sessionId: 'discord:222222222222222222:444444444444444444' });
  });

  it('falls back to a remembered key for long ids, which a fresh process reports as expired', () => {
    const codec = createFeedbackIdCodec();
    const target = { rating: 'down' as const, messageId: 'm'.repeat(80), sessionId: 'discord:222222222222222222:444444444444444444' };
    const id = codec.encode(target);
    expect(id.length).toBeLessThanOrEqual(CUSTOM_ID_LIMIT);
    expect(codec.decode(id)).toEqual(target);
    expect(createFeedbackIdCodec().decode(id)).toBeUndefined();
  });

  it('ignores ids that are not ours', () => {
    const codec = createFeedbackIdCodec();
    expect(codec.decode('something-else')).toBeUndefined();
    expect(codec.decode('pf|meh|m|s')).toBeUndefined();
  });
});
