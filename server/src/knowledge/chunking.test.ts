import { describe, expect, it } from 'vitest';
import { chunkDocument, inlineMarkdownToText, type ChunkDraft } from './chunking.js';

const GUIDE = `---
title: Parley guide
sidebar_position: 2
---

Parley is a self-hosted assistant that answers questions from your documents.

# Getting started

Read this page before your first deployment.

## Install

Parley needs Node 20 or newer. Install the CLI globally:

\`\`\`bash
# this comment is not a heading
npm install -g parley
\`\`\`

Then run \`parley init\` in an empty directory.

## Configure

### Environment variables

Set \`PARLEY_PORT\` to change the port. The default is 3000.

### API keys

Create an API key under **Settings → API keys**. Keys are shown only once.

Rotate keys every 90 days.

# Troubleshooting

If the server does not start, check the logs.
`;

const byHeading = (chunks: ChunkDraft[], heading: string): ChunkDraft[] =>
  chunks.filter((c) => c.headingPath[c.headingPath.length - 1] === heading);

describe('chunkDocument: markdown structure', () => {
  const chunks = chunkDocument({ title: 'Parley guide', content: GUIDE, format: 'markdown' });

  it('produces one chunk per non-empty section, in order, numbered 0..n-1', () => {
    expect(chunks.map((c) => c.headingPath)).toEqual([
      [],
      ['Getting started'],
      ['Getting started', 'Install'],
      ['Getting started', 'Configure', 'Environment variables'],
      ['Getting started', 'Configure', 'API keys'],
      ['Troubleshooting'],
    ]);
    expect(chunks.map((c) => c.ordinal)).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('makes up no anchors for markdown headings: the page behind the URL may not have them', () => {
    expect(chunks.map((c) => c.anchor)).toEqual([null, null, null, null, null, null]);
  });

  it("takes a heading's own id, written {#id} (as html-to-text.ts writes an HTML heading id; kramdown/Pandoc syntax)", () => {
    const withIds = chunkDocument({
      title: 't',
      format: 'markdown',
      content: '## Shipping {#ship}\n\nBy sea.\n\n## Returns\n\nBy post.\n\n## Odd {#has space}\n\nText.',
    });
    expect(withIds.map((c) => [c.headingPath, c.anchor])).toEqual([
      [['Shipping'], 'ship'],
      [['Returns'], null],
      [['Odd {#has space}'], null],
    ]);
  });

  it('keeps body text only: no heading lines, no front matter', () => {
    for (const c of chunks) {
      expect(c.text.replace(/```[\s\S]*?```/g, '')).not.toMatch(/^#{1,6}\s/m);
      expect(c.text).not.toContain('sidebar_position');
    }
    expect(chunks[0]?.text).toBe('Parley is a self-hosted assistant that answers questions from your documents.');
  });

  it('keeps a fenced code block whole and does not read "#" inside it as a heading', () => {
    const install = byHeading(chunks, 'Install');
    expect(install).toHaveLength(1);
    expect(install[0]?.text).toBe(
      'Parley needs Node 20 or newer. Install the CLI globally:\n\n```bash\n# this comment is not a heading\nnpm install -g parley\n```\n\nThen run `parley init` in an empty directory.',
    );
  });

  it('packs the paragraphs of a section together', () => {
    expect(byHeading(chunks, 'API keys')[0]?.text).toBe(
      'Create an API key under **Settings → API keys**. Keys are shown only once.\n\nRotate keys every 90 days.',
    );
  });

  it('never lets a chunk span two sections, even when they are tiny', () => {
    const md = '# A\n\nalpha\n\n# B\n\nbeta\n\n## B1\n\ngamma';
    expect(chunkDocument({ title: 't', content: md, format: 'markdown' }).map((c) => [c.text, c.headingPath])).toEqual([
      ['alpha', ['A']],
      ['beta', ['B']],
      ['gamma', ['B', 'B1']],
    ]);
  });
});

describe('chunkDocument: headings', () => {
  const run = (content: string): ChunkDraft[] => chunkDocument({ title: 't', content, format: 'markdown' });

  it('parses setext headings and tells a thematic break from an h2 underline', () => {
    const md = 'Overview\n========\n\nIntro text.\n\nDetails\n-------\n\nMore text.\n\n---\n\nAfter the rule.';
    expect(run(md).map((c) => [c.headingPath, c.text])).toEqual([
      [['Overview'], 'Intro text.'],
      [['Overview', 'Details'], 'More text.\n\nAfter the rule.'],
    ]);
  });

  it('does not treat "---" under a list item as a heading', () => {
    expect(run('- item one\n---\nText').map((c) => c.headingPath)).toEqual([[]]);
  });

  it('strips closing hashes and inline markdown from heading text', () => {
    const chunks = run('## The `config.yml` file ##\n\nBody.\n\n## [Links](https://x.io) and **bold**\n\nMore.');
    expect(chunks.map((c) => c.headingPath[0])).toEqual(['The config.yml file', 'Links and bold']);
  });

  it('requires a space after # (hashtags are text) and ignores empty headings', () => {
    const chunks = run('#hashtag is text\n\n#\n\nStill text.');
    expect(chunks.map((c) => c.headingPath)).toEqual([[]]);
    expect(chunks[0]?.text).toBe('#hashtag is text\n\nStill text.');
  });

  it('pops the trail on a shallower heading', () => {
    const chunks = run('# Setup\n\na\n\n## Linux\n\nb\n\n# Usage\n\nc\n\n## Linux\n\nd');
    expect(chunks.map((c) => c.headingPath)).toEqual([['Setup'], ['Setup', 'Linux'], ['Usage'], ['Usage', 'Linux']]);
  });

  it('skips HTML comments and sections without body text', () => {
    const chunks = run('# Empty\n\n## Also empty\n\n<!-- TODO:\nwrite this -->\n\n## Full\n\nText.');
    expect(chunks.map((c) => [c.headingPath, c.text])).toEqual([[['Empty', 'Full'], 'Text.']]);
  });
});

describe('chunkDocument: sizes', () => {
  const sentence = (i: number): string => `Sentence number ${i} explains one more detail about the deployment process.`;

  it('splits an over-long paragraph at sentence boundaries, each chunk within target', () => {
    const paragraph = Array.from({ length: 40 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkDocument(
      { title: 't', content: `# Deploy\n\n${paragraph}`, format: 'markdown' },
      { targetChars: 300, maxChars: 600 },
    );
    expect(chunks.length).toBeGreaterThan(5);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(300);
      expect(c.text).toMatch(/^Sentence number \d+ .*process\.$/);
      expect(c.headingPath).toEqual(['Deploy']);
    }
    expect(chunks.map((c) => c.text).join(' ')).toBe(paragraph);
  });

  it('splits a single over-long sentence at word boundaries, never over maxChars', () => {
    const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
    const content = `${words.join(' ')}.`;
    const chunks = chunkDocument({ title: 't', content, format: 'text' }, { targetChars: 200, maxChars: 250 });
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(250);
    // No word is cut: re-joining the chunks gives back every word intact.
    expect(chunks.map((c) => c.text).join(' ')).toBe(content);
  });

  it('hard-cuts a single token longer than maxChars', () => {
    const blob = 'x'.repeat(1000);
    const chunks = chunkDocument({ title: 't', content: blob, format: 'text' }, { targetChars: 100, maxChars: 300 });
    expect(chunks.every((c) => c.text.length <= 300)).toBe(true);
    expect(chunks.map((c) => c.text).join('')).toBe(blob);
  });

  it('keeps a code block between target and max whole', () => {
    const code = '```js\n' + Array.from({ length: 20 }, (_, i) => `console.log(${i}); // line ${i}`).join('\n') + '\n```';
    expect(code.length).toBeGreaterThan(300);
    const chunks = chunkDocument({ title: 't', content: `Example:\n\n${code}`, format: 'markdown' }, { targetChars: 300, maxChars: 1000 });
    expect(chunks.map((c) => c.text)).toEqual(['Example:', code]);
  });

  it('splits a code block larger than maxChars at lines, re-fencing every piece', () => {
    const lines = Array.from({ length: 100 }, (_, i) => `echo "step ${i}"`);
    const code = '```sh\n' + lines.join('\n') + '\n```';
    const chunks = chunkDocument({ title: 't', content: code, format: 'markdown' }, { targetChars: 200, maxChars: 400 });
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks) {
      expect(c.text.length).toBeLessThanOrEqual(400);
      expect(c.text.startsWith('```sh\n')).toBe(true);
      expect(c.text.endsWith('\n```')).toBe(true);
    }
    const body = chunks.flatMap((c) => c.text.split('\n').slice(1, -1));
    expect(body).toEqual(lines);
  });

  it('packs small paragraphs up to the target and starts a new chunk past it', () => {
    const paras = Array.from({ length: 6 }, (_, i) => `Paragraph ${i} ${'z'.repeat(80)}.`);
    const chunks = chunkDocument({ title: 't', content: paras.join('\n\n'), format: 'text' }, { targetChars: 200 });
    expect(chunks.map((c) => c.text)).toEqual([`${paras[0]}\n\n${paras[1]}`, `${paras[2]}\n\n${paras[3]}`, `${paras[4]}\n\n${paras[5]}`]);
  });

  it('respects the defaults (target 1000, max 2000)', () => {
    const long = Array.from({ length: 200 }, (_, i) => sentence(i)).join(' ');
    const chunks = chunkDocument({ title: 't', content: long, format: 'text' });
    expect(chunks.every((c) => c.text.length <= 1000)).toBe(true);
    expect(chunks.some((c) => c.text.length > 800)).toBe(true);
  });
});

describe('chunkDocument: plain text and html', () => {
  it('splits plain text into paragraphs by blank lines and never parses headings', () => {
    const text = '# Not a heading\nfirst paragraph\n\n\n  \nsecond paragraph';
    const chunks = chunkDocument({ title: 't', content: text, format: 'text' }, { targetChars: 40 });
    expect(chunks).toEqual([
      { ordinal: 0, text: '# Not a heading\nfirst paragraph', headingPath: [], anchor: null },
      { ordinal: 1, text: 'second paragraph', headingPath: [], anchor: null },
    ]);
  });

  it('converts HTML first, so its headings become sections (anchored by their own id) and its chrome is gone', () => {
    const html =
      '<html><head><title>Help</title></head><body><nav>Menu</nav><main><h1>Billing</h1><p>Invoices are monthly.</p><h2 id="refunds-30">Refunds</h2><p>Within 30 days.</p></main><footer>Footer</footer></body></html>';
    const chunks = chunkDocument({ title: 'Help', content: html, format: 'html' });
    expect(chunks).toEqual([
      { ordinal: 0, text: 'Invoices are monthly.', headingPath: ['Billing'], anchor: null },
      { ordinal: 1, text: 'Within 30 days.', headingPath: ['Billing', 'Refunds'], anchor: 'refunds-30' },
    ]);
  });

  it('does not turn HTML paragraph text that starts with "#" into a heading', () => {
    const chunks = chunkDocument({ title: 't', content: '<h2>Stats</h2><p># of users grows.</p>', format: 'html' });
    expect(chunks.map((c) => c.headingPath)).toEqual([['Stats']]);
  });

  it('returns [] for empty or whitespace-only documents in every format', () => {
    for (const format of ['text', 'markdown', 'html'] as const) {
      expect(chunkDocument({ title: 't', content: '', format })).toEqual([]);
      expect(chunkDocument({ title: 't', content: ' \n\t\n  ', format })).toEqual([]);
    }
    expect(chunkDocument({ title: 't', content: '<html><body><script>x()</script></body></html>', format: 'html' })).toEqual([]);
    expect(chunkDocument({ title: 't', content: '# Only a heading\n\n## And another', format: 'markdown' })).toEqual([]);
  });

  it('normalises CRLF and a BOM', () => {
    const chunks = chunkDocument({ title: 't', content: '\ufeff# Title\r\n\r\nLine one\r\nline two\r\n', format: 'markdown' });
    expect(chunks).toEqual([{ ordinal: 0, text: 'Line one\nline two', headingPath: ['Title'], anchor: null }]);
  });
});

describe('inlineMarkdownToText', () => {
  it('removes links, images, emphasis and code ticks but keeps snake_case', () => {
    expect(inlineMarkdownToText('Use [the CLI](https://x.io) with ![logo](a.png) **fast** _and_ `safe` my_var ~~old~~')).toBe(
      'Use the CLI with logo fast and safe my_var old',
    );
  });
});

describe('long runs of blanks', () => {
  // Regexes anchored at the end (`\s+$`) retry from every position of an inner run: with
  // 200k blanks that is minutes of CPU. The chunker must stay linear (5 s test timeout).
  it.each(['text', 'markdown', 'html'] as const)('chunks %s with 200k inner blanks in linear time', (format) => {
    for (const blank of [' ', '\t', '\n', ' \n']) {
      const content = `Intro text here.${blank.repeat(200_000 / blank.length)}Then more text.\n\n# Head\n\nBody${blank.repeat(100_000)}end`;
      const chunks = chunkDocument({ title: 't', content, format });
      expect(chunks.map((c) => c.text).join(' ')).toContain('Then more text');
      expect(chunks.every((c) => c.text.length <= 2000)).toBe(true);
    }
  });
});
