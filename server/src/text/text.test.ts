import { describe, expect, it } from 'vitest';
import { contentTerms, questionTerms, termCoverage } from './text.js';
import { STOPWORDS } from './english.js';
import { stem, ftsTokens, tokenize } from './tokens.js';
import { sentenceUnits, splitSentences } from './sentences.js';
import { truncateAtWord } from './truncate.js';

describe('tokenize', () => {
  it('lowercases words and drops punctuation', () => {
    expect(tokenize('Hello, World! How are YOU?')).toEqual(['hello', 'world', 'how', 'are', 'you']);
  });

  it('keeps letters and digits of any script, with accents and combining marks', () => {
    expect(tokenize('Café Straße данные')).toEqual(['café', 'straße', 'данные']);
    // A decomposed "é" (e + U+0301) is one word after NFKC, not two.
    expect(tokenize('Cafe\u0301 ok')).toEqual(['café', 'ok']);
    expect(tokenize('हिन्दी भाषा')).toEqual(['हिन्दी', 'भाषा']);
  });

  it('splits Han and kana into single characters, leaving Latin runs whole', () => {
    expect(tokenize('API设置')).toEqual(['api', '设', '置']);
    expect(tokenize('データ')).toEqual(['デ', 'ー', 'タ'].filter((c) => /\p{L}/u.test(c)));
  });

  it('keeps inner apostrophes, normalising typographic ones', () => {
    expect(tokenize("Don't stop")).toEqual(["don't", 'stop']);
    expect(tokenize('the user\u2019s key')).toEqual(['the', "user's", 'key']);
    // Quotes around a word are not part of it.
    expect(tokenize("'quoted'")).toEqual(['quoted']);
  });

  it('ignores soft hyphens and zero-width spaces inside words', () => {
    expect(tokenize('config\u00aduration zero\u200bwidth')).toEqual(['configuration', 'zerowidth']);
  });

  it('splits on hyphens, underscores and dots', () => {
    expect(tokenize('server-to-server max_tokens v2.0')).toEqual(['server', 'to', 'server', 'max', 'tokens', 'v2', '0']);
  });

  it('returns [] for empty or punctuation-only text', () => {
    expect(tokenize('')).toEqual([]);
    expect(tokenize(' -- ... !!! ')).toEqual([]);
  });
});

describe('stem', () => {
  it.each([
    ['cats', 'cat'],
    ['ponies', 'poni'],
    ['caresses', 'caress'],
    ['running', 'run'],
    ['hopping', 'hop'],
    ['hoping', 'hope'],
    ['connected', 'connect'],
    ['connection', 'connect'],
    ['connections', 'connect'],
    ['quickly', 'quickli'],
    ['early', 'earli'],
    ['only', 'onli'],
    ['generalization', 'gener'],
    ['1990s', '1990'],
    ['darkness', 'dark'],
    ['relational', 'relat'],
    ['settings', 'set'],
    ['yelling', 'yell'],
  ])('%s → %s', (word, expected) => {
    expect(stem(word)).toBe(expected);
  });

  it('maps inflections of one word to the same stem', () => {
    const same = (words: string[]): void => {
      expect(new Set(words.map(stem)).size, words.join(', ')).toBe(1);
    };
    same(['rotate', 'rotates', 'rotated', 'rotating', 'rotation']);
    same(['configure', 'configured', 'configuring', 'configuration']);
    same(['key', 'keys']);
    same(['reply', 'replies', 'replied']);
    same(['secure', 'secured', 'securing']);
    same(['install', 'installs', 'installed', 'installing']);
  });

  it('keeps unrelated words apart', () => {
    expect(stem('key')).not.toBe(stem('kit'));
    expect(stem('rotate')).not.toBe(stem('route'));
  });

  it('drops a possessive and lowercases', () => {
    expect(stem("user's")).toBe('user');
    expect(stem('Users')).toBe('user');
    expect(stem('RUNNING')).toBe('run');
  });

  it('folds like unicode61 (Latin diacritics removed) and leaves short words and other scripts alone', () => {
    expect(stem('is')).toBe('is');
    expect(stem('2024')).toBe('2024');
    expect(stem('v2')).toBe('v2');
    expect(stem('Café')).toBe('cafe');
    expect(stem('données')).toBe('donne');
    expect(stem('данные')).toBe('данные');
  });
});

describe('ftsTokens', () => {
  it('cuts and folds as unicode61 remove_diacritics 2: apostrophes split, ideograph runs stay whole, final sigma folds', () => {
    expect(ftsTokens("Don't stop: user's café, Ῥῆνος 中国人")).toEqual(['don', 't', 'stop', 'user', 's', 'cafe', 'ῥῆνοσ', '中国人']);
  });
});

describe('STOPWORDS and contentTerms', () => {
  it('treats question words and auxiliaries as stopwords, not domain words', () => {
    for (const w of ['what', 'how', 'when', 'where', 'who', 'why', 'which', 'does', 'do', 'can', 'is', 'are', "don't"]) {
      expect(STOPWORDS.has(w), w).toBe(true);
    }
    for (const w of ['key', 'api', 'install', 'widget', 'price']) expect(STOPWORDS.has(w), w).toBe(false);
  });

  it('keeps content words, stemmed, deduped, in order', () => {
    expect(contentTerms('How do I rotate an API key?')).toEqual([stem('rotate'), 'api', stem('key')]);
    expect(contentTerms('Keys, keys and more KEY')).toEqual([stem('key')]);
    expect(contentTerms('Where can I download invoices?')).toEqual([stem('download'), stem('invoices')]);
  });

  it('keeps question frame words out of a question\'s terms: "how many", "what year", "the name of"', () => {
    expect(questionTerms('How many people live in Berlin?')).toEqual([stem('person'), stem('live'), 'berlin']); // people: the family of person (word-forms.ts)
    expect(questionTerms('What year did the Rhine flood?')).toEqual(['rhine', stem('flood')]);
    expect(questionTerms('What type of music does she sing?')).toEqual([stem('music'), stem('sing')]);
    expect(questionTerms('What is the name of her first album?')).toEqual([stem('first'), stem('album')]);
    expect(questionTerms('Name the river.')).toEqual([stem('river')]);
    // A question that is nothing but its frame keeps it.
    expect(questionTerms('What year?')).toEqual([stem('year')]);
    // Text is not a question: "year" stays a word there.
    expect(contentTerms('In what year')).toEqual([stem('year')]);
  });

  it('returns [] for a question made only of stopwords', () => {
    expect(contentTerms('What is it? How does it do that?')).toEqual([]);
  });

  it('drops lone Latin letters but keeps lone CJK characters and numbers', () => {
    expect(contentTerms('a b 5 设')).toEqual(['5', '设']);
  });
});

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
    expect(splitSentences('See Fig. 3 and No. 5 for details. Next one.')).toEqual([
      'See Fig. 3 and No. 5 for details.',
      'Next one.',
    ]);
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
    expect(splitSentences('She moved to Washington, D.C. The move was brief.')).toEqual(['She moved to Washington, D.C.', 'The move was brief.']);
  });

  it('ends a sentence after "etc." only when a new sentence follows', () => {
    expect(splitSentences('Use keys, tokens, etc. for auth. Then deploy.')).toEqual([
      'Use keys, tokens, etc. for auth.',
      'Then deploy.',
    ]);
    expect(splitSentences('Supports CSV, JSON etc. The export is daily.')).toEqual([
      'Supports CSV, JSON etc.',
      'The export is daily.',
    ]);
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
    expect(splitSentences('Loading... Done now. Wait… what happened?')).toEqual([
      'Loading...',
      'Done now.',
      'Wait… what happened?',
    ]);
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
    const text = '## Setup\nBefore you start:\n- Create an account\n- Verify your email\n1. Open the app\n2) Sign in\n| Plan | Price |\n|---|---|\n| Free | $0 |';
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

describe('truncateAtWord', () => {
  const sample = 'Open Settings and choose API keys, then click Rotate next to the key you want to replace.';

  it('returns the text unchanged when it fits', () => {
    expect(truncateAtWord(sample, sample.length)).toBe(sample);
    expect(truncateAtWord('', 10)).toBe('');
  });

  it('cuts at a word boundary and appends an ellipsis within the limit', () => {
    const out = truncateAtWord(sample, 30);
    expect(out).toBe('Open Settings and choose API…');
    expect(out.length).toBeLessThanOrEqual(30);
  });

  it('drops dangling punctuation before the ellipsis', () => {
    expect(truncateAtWord('Open Settings, then click Rotate.', 16)).toBe('Open Settings…');
  });

  it('never cuts inside a markdown link or a bare URL', () => {
    const linked = 'See the [API key settings page](https://example.com/settings/keys) for details.';
    expect(truncateAtWord(linked, 50)).toBe('See the…');
    const bare = 'Docs live at https://example.com/a/very/long/path/to/docs/page now.';
    expect(truncateAtWord(bare, 40)).toBe('Docs live at…');
  });

  it('reads links and code only on the lines a cut can reach, yet still sees a link title that runs onto the next line', () => {
    // The span after the cut's line cannot matter: the cut falls on the first line.
    const later = 'Open the settings page and rotate the key.\nThen see [the guide](https://example.com/g) or `npm run x`.';
    expect(truncateAtWord(later, 30)).toBe('Open the settings page and…');
    // A link whose quoted title crosses a newline is one span from "[" to ")": no cut inside it.
    const titled = 'Read [the guide](https://example.com/g "Guide\nfor keys") first.';
    expect(truncateAtWord(titled, 30)).toBe('Read…');
  });

  it('returns "" when not even the first word fits', () => {
    expect(truncateAtWord('Supercalifragilistic word', 8)).toBe('');
    expect(truncateAtWord('anything', 1)).toBe('');
  });

  it('does not split surrogate pairs or combining marks', () => {
    const out = truncateAtWord('😀😀😀😀😀😀 done', 6);
    expect(out.length).toBeLessThanOrEqual(6);
    expect(out).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });

  it('cuts between CJK characters', () => {
    expect(truncateAtWord('这是一个很长的句子没有空格', 6)).toBe('这是一个很…');
    // A space earlier in the text does not pull the cut back before the CJK characters.
    expect(truncateAtWord('See [1] 配送には三日から五日かかります', 14)).toBe('See [1] 配送には三…');
  });

  it('does not leave an unclosed code fence', () => {
    const text = 'Install it:\n\n```bash\nnpm install --global parley-cli-tools-and-more\nparley init\n```';
    const out = truncateAtWord(text, 40);
    expect(out).toBe('Install it…');
  });

  it('always yields a word-aligned prefix within the limit (property check)', () => {
    const words = 'the quick brown fox jumps over lazy dogs rotate API keys securely every ninety days'.split(' ');
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 200; run++) {
      const text = Array.from({ length: 5 + Math.floor(next() * 30) }, () => words[Math.floor(next() * words.length)]).join(' ');
      const max = 2 + Math.floor(next() * 120);
      const out = truncateAtWord(text, max);
      expect(out.length).toBeLessThanOrEqual(max);
      if (out === text) continue;
      const body = out.endsWith('…') ? out.slice(0, -1) : out;
      expect(text.startsWith(body)).toBe(true);
      // The cut falls between words: what follows the kept prefix is a space.
      if (body) expect(text[body.length]).toBe(' ');
    }
  });
});

describe('termCoverage', () => {
  it('is the share of question content terms present, stemmed', () => {
    expect(termCoverage('How do I rotate an API key?', 'Rotating keys through the API is easy.')).toBe(1);
    expect(termCoverage('How do I rotate an API key?', 'Keys are secret.')).toBeCloseTo(1 / 3);
    expect(termCoverage('Where are invoices?', 'Billing happens monthly.')).toBe(0);
  });

  it('is 0 when the question has no content terms', () => {
    expect(termCoverage('What is it?', 'What is it? It is everything.')).toBe(0);
  });
});
