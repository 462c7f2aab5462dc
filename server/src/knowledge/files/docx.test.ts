import { describe, expect, it } from 'vitest';
import { extractDocx, openDocx } from './docx.js';
import { makeDocx, makeOtherZip } from '../../../test/document-files.js';

const read = async (data: Buffer, opts?: { maxInflatedBytes?: number }) => {
  const zip = await openDocx(data);
  if (!zip) throw new Error('not a docx');
  return extractDocx(data, zip, opts);
};

describe('extractDocx', () => {
  it('Word headings become <h1>/<h2>; the title comes from docProps/core.xml', async () => {
    const out = await read(
      await makeDocx(
        [
          { text: 'Guide', style: 'Heading1' },
          { text: 'Intro & scope.' },
          { text: 'Setup', style: 'Heading2' },
          { text: 'Run <install>.' },
        ],
        { title: 'The  "Guide" & more' },
      ),
    );
    expect(out.title).toBe('The "Guide" & more');
    expect(out.html).toBe('<h1>Guide</h1><p>Intro &amp; scope.</p><h2>Setup</h2><p>Run &lt;install&gt;.</p>');
  });

  it('headings are found by style ID when styles.xml does not name them; no title → null', async () => {
    const out = await read(await makeDocx([{ text: 'Only heading', style: 'Heading1' }, { text: 'Body.' }], { styles: false }));
    expect(out).toEqual({ title: null, html: '<h1>Only heading</h1><p>Body.</p>' });
  });

  it('openDocx: null for a zip that is no Word document; a damaged zip → 400', async () => {
    expect(await openDocx(await makeOtherZip())).toBeNull();
    const docx = await makeDocx([{ text: 'x' }]);
    await expect(openDocx(docx.subarray(0, 100))).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/could not be read/),
    });
  });

  it('refuses archives that claim too much once inflated (zip bombs)', async () => {
    const docx = await makeDocx([{ text: 'a'.repeat(200_000) }]);
    await expect(read(docx, { maxInflatedBytes: 100_000 })).rejects.toMatchObject({
      code: 'validation_error',
      message: expect.stringMatching(/too large once uncompressed/),
    });
  });
});
