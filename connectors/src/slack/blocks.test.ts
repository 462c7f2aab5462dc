import { describe, expect, it } from 'vitest';
import { BLOCKS_PER_MESSAGE, readFeedbackValue, renderAnswerMessages, SECTION_TEXT_LIMIT } from './blocks.js';
import { markdownToMrkdwn, slackTextToPlain } from './mrkdwn.js';

type Section = { type: string; text?: { text: string } };

describe('slack mrkdwn', () => {
  it('escapes control characters so an answer cannot ping or link by itself', () => {
    expect(markdownToMrkdwn('a < b && c > d <!channel>')).toBe('a &lt; b &amp;&amp; c &gt; d &lt;!channel&gt;');
  });

  it("turns Slack's wire text back into what the user typed", () => {
    expect(slackTextToPlain('<@UBOT01> is 1 &lt; 2 &amp;&amp; 3 &gt; 2 in <#C01|general>? see <https://x.example/a|the doc> <!here>')).toBe(
      '  is 1 < 2 && 3 > 2 in #general? see the doc (https://x.example/a) @here',
    );
    expect(slackTextToPlain('mail <mailto:a@b.example|a@b.example> or <https://x.example>')).toBe('mail a@b.example or https://x.example');
  });

  it('converts Markdown links and bold', () => {
    expect(markdownToMrkdwn('See **the guide**: [Guide | v2](https://d.example/g?a=1&b=2).')).toBe(
      'See *the guide*: <https://d.example/g?a=1&amp;b=2|Guide ¦ v2>.',
    );
  });
});

describe('slack blocks', () => {
  const answer = {
    response: 'Use <b>SSO</b>.',
    sessionId: 'slack:T:C:U',
    confidence: 0.5,
    sources: [{ title: 'SSO & you', url: 'https://d.example/sso' }],
    messageId: 'm7',
  };

  it('renders sections, a context line and feedback buttons carrying session and message', () => {
    const [message, ...rest] = renderAnswerMessages(answer, { botName: 'Acme' });
    expect(rest).toHaveLength(0);
    expect(message?.blocks[0]).toEqual({
      type: 'section',
      text: { type: 'mrkdwn', text: 'Use &lt;b&gt;SSO&lt;/b&gt;.\n\n*Sources*\n1. <https://d.example/sso|SSO &amp; you>' },
    });
    expect(message?.blocks[1]).toMatchObject({ type: 'context' });
    const actions = message?.blocks[2] as { elements: { value: string }[] };
    expect(readFeedbackValue(actions.elements[0]?.value)).toEqual({ s: 'slack:T:C:U', m: 'm7' });
    expect(message?.text).toBe('Use <b>SSO</b>.');
  });

  it('splits a long answer into 3000-character sections and 50-block messages without losing text', () => {
    const response = Array.from({ length: 40_000 }, (_, i) => `w${i}`).join(' ');
    const messages = renderAnswerMessages({ ...answer, response, sources: [] }, { botName: 'Acme' });
    expect(messages.length).toBeGreaterThan(1);
    const blocks = messages.flatMap((m) => m.blocks) as Section[];
    for (const m of messages) expect(m.blocks.length).toBeLessThanOrEqual(BLOCKS_PER_MESSAGE);
    const sections = blocks.filter((b) => b.type === 'section').map((b) => b.text?.text ?? '');
    for (const s of sections) expect(s.length).toBeLessThanOrEqual(SECTION_TEXT_LIMIT);
    expect(sections.join('')).toBe(response);
    // Context and buttons end the last message, together.
    expect(
      messages
        .at(-1)
        ?.blocks.slice(-2)
        .map((b) => b.type),
    ).toEqual(['context', 'actions']);
  });
});
