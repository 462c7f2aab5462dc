import { describe, expect, it } from 'vitest';
import { cleanQuestion } from './ask-parley.js';
import { friendlyErrorMessage } from './friendly-error.js';
import { ParleyError } from './parley-error.js';

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
      new Error('anything else'),
    ].map(friendlyErrorMessage);
    expect(new Set(messages).size).toBe(messages.length);
    for (const message of messages) expect(message).not.toMatch(/stack|sk_|Error:/);
  });
});

describe('cleanQuestion', () => {
  it('trims and collapses the spaces a removed mention leaves, keeping line breaks', () => {
    expect(cleanQuestion('   how do I\t  run  this?\n  npm start \n')).toBe('how do I run this?\nnpm start');
    expect(cleanQuestion(undefined)).toBe('');
  });
});
