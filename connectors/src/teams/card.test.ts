import { describe, expect, it } from 'vitest';
import { CARD_TEXT_LIMIT, readFeedbackData, renderAnswerCards } from './card.js';
import { stripAskKeyword } from './commands/ask.js';
import { parseBotTexts } from '../core/texts.js';
import { LOCALES } from '../../../server/src/i18n/locales.js';

type CardContent = { version: string; body: { text: string }[]; actions?: { data: unknown }[] };

describe('teams cards', () => {
  it('renders the bot name, the answer with sources, confidence and feedback actions', () => {
    const [card] = renderAnswerCards(
      { response: 'Yes.', sessionId: 'teams:a:1', confidence: 0.5, sources: [{ title: 'Doc', url: 'https://d.example' }], messageId: 'm1' },
      'AcmeBot',
    );
    const content = card?.content as CardContent;
    expect(content.version).toBe('1.5');
    expect(content.body.map((b) => b.text)).toEqual(['AcmeBot', 'Yes.\n\n**Sources**\n1. [Doc](https://d.example)', 'Confidence 50%']);
    expect(readFeedbackData(content.actions?.[0]?.data)).toEqual({
      verb: 'parley-feedback',
      rating: 'up',
      messageId: 'm1',
      sessionId: 'teams:a:1',
    });
  });

  it("writes the sources heading, an untitled source and the confidence in the assistant's language", () => {
    const strings = { ...LOCALES.tr!.widget, ...LOCALES.tr!.connector };
    const sources = [
      { title: 'Belge', url: 'https://d.example' },
      { title: ' ', url: '' },
    ];
    const [card] = renderAnswerCards(
      { response: 'Evet.', sessionId: 's', confidence: 0.9, sources },
      'AcmeBot',
      parseBotTexts({ strings }),
    );
    expect((card?.content as CardContent).body.map((b) => b.text)).toEqual([
      'AcmeBot',
      'Evet.\n\n**Kaynaklar**\n1. [Belge](https://d.example)\n2. Kaynak',
      'Güven: %90',
    ]);
  });

  it("stands in for an empty answer in the assistant's language", () => {
    const strings = { ...LOCALES.ko!.widget, ...LOCALES.ko!.connector };
    const [card] = renderAnswerCards({ response: ' ', sessionId: 's', confidence: 0, sources: [] }, 'AcmeBot', parseBotTexts({ strings }));
    expect((card?.content as CardContent).body[1]?.text).toBe('_(답변 없음)_');
  });

  it('continues a long answer in further cards without losing text', () => {
    const response = 'lorem ipsum '.repeat(2000);
    const cards = renderAnswerCards({ response, sessionId: 's', confidence: 1, sources: [] }, 'AcmeBot');
    expect(cards.length).toBe(Math.ceil(response.length / CARD_TEXT_LIMIT));
    const texts = cards.map((c) => (c.content as CardContent).body.find((b) => b.text.startsWith('lorem'))?.text ?? '');
    expect(texts.join('')).toBe(response);
    expect((cards.at(-1)?.content as CardContent).actions).toBeUndefined();
  });

  it('strips the ask keyword only at the start', () => {
    expect(stripAskKeyword('ask: how?')).toBe('how?');
    expect(stripAskKeyword('/ask how?')).toBe('how?');
    expect(stripAskKeyword('Asking for a friend')).toBe('Asking for a friend');
    expect(stripAskKeyword('what should I ask?')).toBe('what should I ask?');
  });
});
