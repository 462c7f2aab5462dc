import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { extractPdf, rebuildPageText, type PdfTextRun } from './pdf.js';
import { makeCjkPdf, makeEncryptedPdf, makeGarbagePdf, makePdf, makeTruncatedPdf } from '../../../test/document-files.js';

/** A run at (x, y), 12 pt, ~6 pt per character. */
const run = (str: string, x: number, y: number, more: Partial<PdfTextRun> = {}): PdfTextRun => ({
  str,
  x,
  y,
  width: str.length * 6,
  size: 12,
  hasEOL: false,
  ...more,
});

describe('rebuildPageText', () => {
  it('joins runs on one baseline and breaks lines where the baseline moves, with or without hasEOL', () => {
    expect(
      rebuildPageText([
        run('Hello', 72, 700),
        run(' ', 102, 700, { size: 0 }),
        run('world', 108, 700),
        run('second', 72, 685.6),
        run('line', 120, 685.6), // a gap between runs is a space
        run('third', 72, 671.2, { hasEOL: true }),
        run('line', 72, 671.2),
      ]),
    ).toBe('Hello world second line third line');
  });

  it('keeps paragraph breaks: a gap wider than the usual line spacing, a font size change, text jumping back up', () => {
    const text = rebuildPageText([
      run('Heading', 72, 740, { size: 18, width: 80 }),
      run('First paragraph, line one', 72, 715),
      run('and line two.', 72, 700.6),
      run('Second paragraph after a gap.', 72, 676),
      run('Next column starts higher.', 320, 740),
    ]);
    expect(text).toBe('Heading\n\nFirst paragraph, line one and line two.\n\nSecond paragraph after a gap.\n\nNext column starts higher.');
  });

  it('double-spaced text is not a paragraph per line', () => {
    expect(rebuildPageText([run('one', 72, 700), run('two', 72, 676), run('three', 72, 652), run('four', 72, 600)])).toBe(
      'one two three\n\nfour',
    );
  });

  it('joins words hyphenated across lines, keeps real hyphens and dashes', () => {
    expect(
      rebuildPageText([
        run('an ex-', 72, 700),
        run('ample of hyph-', 72, 685.6),
        run('enation, a well-', 72, 671.2),
        run('Known name -', 72, 656.8),
        run('done', 72, 642.4),
        run('soft\u00ad', 72, 628),
        run('ware', 72, 613.6),
      ]),
    ).toBe('an example of hyphenation, a well- Known name - done software');
  });

  it('collapses whitespace, drops control characters, keeps superscripts on their line', () => {
    expect(
      rebuildPageText([
        run('  spaced \t  out\u0000 ', 72, 700, { hasEOL: true }),
        run('E = mc', 72, 685.6),
        run('2', 108, 689, { size: 7 }),
        run('holds', 120, 685.6),
      ]),
    ).toBe('spaced out E = mc2 holds');
  });

  it('is empty for a page without visible text', () => {
    expect(rebuildPageText([])).toBe('');
    expect(rebuildPageText([run(' ', 72, 700, { size: 0, hasEOL: true }), run('', 72, 690, { hasEOL: true })])).toBe('');
  });
});

describe('extractPdf', () => {
  it('one entry per page with text, 1-based page numbers, the metadata title', async () => {
    const pdf = await makePdf(
      [
        ['# Introduction', 'This manual explains the ' + 'installation of the product in several careful steps. '.repeat(3)],
        [],
        ['Page three has the troubleshooting section.'],
      ],
      { title: 'Product manual' },
    );
    const out = await extractPdf(pdf);
    expect(out.title).toBe('Product manual');
    expect(out.pageCount).toBe(3);
    expect(out.pages.map((p) => p.page)).toEqual([1, 3]);
    expect(out.pages[0]?.text).toBe(
      `Introduction\n\nThis manual explains the ${'installation of the product in several careful steps. '.repeat(3).trim()}`,
    );
    expect(out.pages[1]?.text).toBe('Page three has the troubleshooting section.');
  });

  it('reads CID-keyed text through the CMaps shipped with pdfjs-dist (local files, no download)', async () => {
    expect((await extractPdf(makeCjkPdf('你好世界'))).pages).toEqual([{ page: 1, text: '你好世界' }]);
  });

  it('a PDF without a title has none', async () => {
    expect((await extractPdf(await makePdf([['No title here.']]))).title).toBeNull();
  });

  it('the encrypted fixture is a real encrypted PDF: pdfjs wants its password, and reads it with it', async () => {
    const data = makeEncryptedPdf({ userPassword: 'letmein', text: 'Secret plans (v2)' });
    const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const error = await pdfjs.getDocument({ data: new Uint8Array(data), verbosity: 0 }).promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ name: 'PasswordException' });
    const task = pdfjs.getDocument({ data: new Uint8Array(data), password: 'letmein', verbosity: 0 });
    const doc = await task.promise;
    const content = await (await doc.getPage(1)).getTextContent();
    expect(content.items.map((i) => ('str' in i ? i.str : '')).join('')).toBe('Secret plans (v2)');
    await task.destroy();
  });

  it('encrypted → 400 saying so; damaged → 400 saying it could not be read', async () => {
    const encrypted = await extractPdf(makeEncryptedPdf({ userPassword: 'letmein', text: 'x' })).catch((e: unknown) => e);
    expect(encrypted).toBeInstanceOf(AppError);
    expect(encrypted).toMatchObject({ code: 'validation_error', message: expect.stringMatching(/encrypted/) });
    for (const data of [makeGarbagePdf(), await makeTruncatedPdf(0.5)]) {
      await expect(extractPdf(data)).rejects.toMatchObject({
        code: 'validation_error',
        message: expect.stringMatching(/could not be read/),
      });
    }
  });

  it('several at once: each gets its own pages; a job over its deadline is stopped and the next one runs', async () => {
    const docs = await Promise.all([1, 2, 3, 4].map((i) => makePdf(Array.from({ length: i }, (_, p) => [`Document ${i} page ${p + 1}.`]))));
    const out = await Promise.all(docs.map((d) => extractPdf(d)));
    expect(out.map((o) => o.pages.map((p) => p.text))).toEqual(
      [1, 2, 3, 4].map((i) => Array.from({ length: i }, (_, p) => `Document ${i} page ${p + 1}.`)),
    );
    await expect(extractPdf(docs[3]!, { deadlineMs: 1 })).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/too long/),
    });
    expect((await extractPdf(docs[0]!)).pages).toEqual([{ page: 1, text: 'Document 1 page 1.' }]);
  });

  it('a PDF with only an owner password (permissions) opens', async () => {
    const out = await extractPdf(makeEncryptedPdf({ userPassword: '', text: 'Readable by anyone' }));
    expect(out.pages).toEqual([{ page: 1, text: 'Readable by anyone' }]);
  });
});
