import { describe, expect, it } from 'vitest';
import { cleanQuestion } from './ask-parley.js';
import { friendlyErrorMessage } from './friendly-error.js';
import { ParleyError } from './parley-error.js';
import { ENGLISH_TEXTS, parseBotTexts } from './texts.js';

describe('friendlyErrorMessage', () => {
  it('says "busy" on rate limiting', () => {
    expect(friendlyErrorMessage(new ParleyError('x', 429, 'RATE_LIMITED', 30))).toBe("I'm busy, try again in a minute.");
  });

  it('distinguishes unreachable, timeout, bad question, misconfiguration and server errors', () => {
    const messages = [
      new ParleyError('x', 0, 'UNREACHABLE'),
      new ParleyError('x', 0, 'TIMEOUT'),
      new ParleyError('x', 400, 'INVALID_REQUEST'),
      new ParleyError('x', 401, 'UNAUTHORIZED'),
      new ParleyError('x', 404, 'NOT_FOUND'),
      new ParleyError('x', 500, 'INTERNAL_ERROR'),
    ].map((err) => friendlyErrorMessage(err));
    expect(new Set(messages).size).toBe(messages.length);
    for (const message of messages) expect(message).not.toMatch(/stack|sk_|Error:/);
    // Anything else is the server error's "something went wrong": nothing more to tell the user.
    expect(friendlyErrorMessage(new Error('anything else'))).toBe(messages.at(-1));
  });

  it("speaks the assistant's language when given its texts", () => {
    const texts = parseBotTexts({ strings: { rateLimited: 'Zu viele Nachrichten.', timeout: 'Das hat zu lange gedauert.', error: '' } });
    expect(friendlyErrorMessage(new ParleyError('x', 429, 'RATE_LIMITED', 30), texts)).toBe('Zu viele Nachrichten.');
    expect(friendlyErrorMessage(new ParleyError('x', 0, 'TIMEOUT'), texts)).toBe('Das hat zu lange gedauert.');
    // An empty or missing text keeps the English one.
    expect(friendlyErrorMessage(new Error('x'), texts)).toBe(ENGLISH_TEXTS.error);
  });
});

describe('cleanQuestion', () => {
  it('trims and collapses the spaces a removed mention leaves, keeping line breaks', () => {
    expect(cleanQuestion('   how do I\t  run  this?\n  npm start \n')).toBe('how do I run this?\nnpm start');
    expect(cleanQuestion(undefined)).toBe('');
  });
});
