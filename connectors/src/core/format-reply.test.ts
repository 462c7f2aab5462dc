import { describe, expect, it } from 'vitest';
import { formatAnswerText, markdownStyle } from './format-reply.js';

describe('formatAnswerText', () => {
  it('puts the answer first, then numbered sources in ranking order', () => {
    const text = formatAnswerText(
      {
        response: 'Use the reset link.',
        sources: [
          { title: 'Reset password', url: 'https://d.example/reset' },
          { title: 'FAQ', url: 'https://d.example/faq' },
        ],
      },
      markdownStyle,
    );
    expect(text).toBe('Use the reset link.\n\n**Sources**\n1. [Reset password](https://d.example/reset)\n2. [FAQ](https://d.example/faq)');
  });

  it('leaves the answer alone when there are no sources', () => {
    expect(formatAnswerText({ response: 'Hi.', sources: [] }, markdownStyle)).toBe('Hi.');
  });

  it('keeps a source without URL or title readable, and escapes link-breaking characters', () => {
    const text = formatAnswerText(
      {
        response: 'A',
        sources: [
          { title: 'handbook.pdf', url: '' },
          { title: '', url: 'https://d.example/x' },
          { title: 'Arrays [1]', url: 'https://d.example/a (b)' },
        ],
      },
      markdownStyle,
    );
    expect(text.split('\n').slice(3)).toEqual([
      '1. handbook.pdf',
      '2. [https://d.example/x](https://d.example/x)',
      '3. [Arrays \\[1\\]](https://d.example/a%20(b%29)',
    ]);
  });
});
