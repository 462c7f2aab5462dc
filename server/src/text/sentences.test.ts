import { describe, expect, it } from 'vitest';
import { sentenceUnits, splitSentences } from './sentences.js';

describe('splitSentences', () => {
  it('splits on sentence punctuation followed by a capital', () => {
    expect(splitSentences('Install the app. Then sign in! Does it work? Yes.')).toEqual([
      'Install the app.',
      'Then sign in!',
      'Does it work?',
      'Yes.',
    ]);
  });

  it('does not split after common abbreviations', () => {
    expect(splitSentences('Ask Dr. Smith and Mr. Jones. They know e.g. the limits, i.e. the quotas. Done.')).toEqual([
      'Ask Dr. Smith and Mr. Jones.',
      'They know e.g. the limits, i.e. the quotas.',
      'Done.',
    ]);
    expect(splitSentences('See Fig. 3 and No. 5 for details. Next one.')).toEqual(['See Fig. 3 and No. 5 for details.', 'Next one.']);
    expect(splitSentences('Written by J. R. Tolkien. A classic.')).toEqual(['Written by J. R. Tolkien.', 'A classic.']);
  });

  it('keeps "Op. 28" and dotted initials ("U.S. Billboard", "J.S. Bach") inside a sentence, but ends one before an opener', () => {
    expect(splitSentences('He wrote the Preludes, Op. 28, in Majorca. They were published in 1839.')).toEqual([
      'He wrote the Preludes, Op. 28, in Majorca.',
      'They were published in 1839.',
    ]);
    expect(splitSentences('It peaked at number four on the U.S. Billboard Hot 100. He admired J.S. Bach greatly.')).toEqual([
      'It peaked at number four on the U.S. Billboard Hot 100.',
      'He admired J.S. Bach greatly.',
    ]);
    expect(splitSentences('She moved to Washington, D.C. The move was brief.')).toEqual([
      'She moved to Washington, D.C.',
      'The move was brief.',
    ]);
  });

  it('ends a sentence after "etc." only when a new sentence follows', () => {
    expect(splitSentences('Use keys, tokens, etc. for auth. Then deploy.')).toEqual(['Use keys, tokens, etc. for auth.', 'Then deploy.']);
    expect(splitSentences('Supports CSV, JSON etc. The export is daily.')).toEqual(['Supports CSV, JSON etc.', 'The export is daily.']);
  });

  it('keeps decimals, versions, URLs, emails and inline code intact', () => {
    expect(
      splitSentences(
        'It costs $3.50 per month in v2.1.3. See https://docs.example.com/a.b/c.html. Mail help@example.com. Run `make. Now` first.',
      ),
    ).toEqual([
      'It costs $3.50 per month in v2.1.3.',
      'See https://docs.example.com/a.b/c.html.',
      'Mail help@example.com.',
      'Run `make. Now` first.',
    ]);
  });

  it('handles ellipses: a boundary only before a capital', () => {
    expect(splitSentences('Loading... Done now. Wait… what happened?')).toEqual(['Loading...', 'Done now.', 'Wait… what happened?']);
  });

  it('splits after closing quotes and brackets', () => {
    expect(splitSentences('He said "Stop." Then left. (It was late.) Fine.')).toEqual([
      'He said "Stop."',
      'Then left.',
      '(It was late.)',
      'Fine.',
    ]);
  });

  it('treats list items, headings and table rows as separate sentences, keeping markers', () => {
    const text =
      '## Setup\nBefore you start:\n- Create an account\n- Verify your email\n1. Open the app\n2) Sign in\n| Plan | Price |\n|---|---|\n| Free | $0 |';
    expect(splitSentences(text)).toEqual([
      '## Setup',
      'Before you start:',
      '- Create an account',
      '- Verify your email',
      '1. Open the app',
      '2) Sign in',
      '| Plan | Price |',
      '| Free | $0 |',
    ]);
  });

  it('treats line breaks as boundaries unless the line is a soft wrap', () => {
    expect(splitSentences('Overview\nParley answers questions\nfrom your docs. It is fast.')).toEqual([
      'Overview',
      'Parley answers questions from your docs.',
      'It is fast.',
    ]);
    // A line ending in a function word or comma continues on the next line.
    expect(splitSentences('Open the\nSettings page, then\nclick Save.')).toEqual(['Open the Settings page, then click Save.']);
    // Blank lines always separate.
    expect(splitSentences('First paragraph\n\nsecond paragraph')).toEqual(['First paragraph', 'second paragraph']);
  });

  it('joins indented continuation lines of a list item', () => {
    expect(splitSentences('- Create a key\n  in Settings.\n- Copy it')).toEqual(['- Create a key in Settings.', '- Copy it']);
  });

  it('keeps fenced code blocks whole, even with punctuation and # lines inside', () => {
    const text = 'Run this:\n```bash\n# install. Now\nnpm i parley\n```\nDone.';
    expect(splitSentences(text)).toEqual(['Run this:', '```bash\n# install. Now\nnpm i parley\n```', 'Done.']);
  });

  it('splits CJK text at full-width punctuation', () => {
    expect(splitSentences('这是第一句。这是第二句！好吗？')).toEqual(['这是第一句。', '这是第二句！', '好吗？']);
  });

  it('drops horizontal rules and returns [] for empty input', () => {
    expect(splitSentences('One.\n\n---\n\nTwo.')).toEqual(['One.', 'Two.']);
    expect(splitSentences('')).toEqual([]);
    expect(splitSentences('  \n\t\n ')).toEqual([]);
  });

  it('does not split lowercase continuations after a period', () => {
    expect(splitSentences('Use the cfg. file option. Next.')).toEqual(['Use the cfg. file option.', 'Next.']);
  });
});

describe('sentenceUnits', () => {
  it('reports kind, block and offsets that slice back to the source', () => {
    const text = 'Intro line one. Line two.\n\n- Item A\n- Item B\n\n```\ncode\n```';
    const units = sentenceUnits(text);
    expect(units.map((u) => [u.kind, u.block])).toEqual([
      ['prose', 0],
      ['prose', 0],
      ['list', 1],
      ['list', 2],
      ['code', 3],
    ]);
    for (const u of units) expect(text.slice(u.start, u.end).replace(/\s+/g, ' ')).toBe(u.text.replace(/\s+/g, ' '));
  });

  it('handles CRLF line endings', () => {
    expect(splitSentences('One line\r\n- item\r\n')).toEqual(['One line', '- item']);
  });
});
