/**
 * Test files made on the fly: PDFs (pdf-lib), a hand-made encrypted PDF (standard security
 * handler, RC4), damaged PDFs and a minimal DOCX (jszip). Used by the tests only.
 */
import { createHash } from 'node:crypto';
import JSZip from 'jszip';
import { PDFDocument, StandardFonts } from 'pdf-lib';

// ---------------------------------------------------------------------------
// PDFs with pdf-lib
// ---------------------------------------------------------------------------

/**
 * A PDF with one page per entry: each page is a list of paragraphs, word-wrapped at ~80
 * characters, 12 pt Helvetica, 14.4 pt leading, a blank line between paragraphs. A paragraph
 * starting with "# " is drawn larger (a heading). An empty list makes a page without text.
 */
export async function makePdf(pages: string[][], opts: { title?: string } = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  if (opts.title) doc.setTitle(opts.title);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const paragraphs of pages) {
    const page = doc.addPage([612, 792]);
    let y = 740;
    for (const paragraph of paragraphs) {
      const heading = paragraph.startsWith('# ');
      const size = heading ? 18 : 12;
      for (const line of wrap(heading ? paragraph.slice(2) : paragraph, 80)) {
        if (y < 60) break;
        page.drawText(line, { x: 72, y, size, font });
        y -= size * 1.2;
      }
      y -= 12;
    }
  }
  return doc.save();
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

/** A PDF whose body is cut off after `keep` of its bytes (no xref, no trailer). */
export async function makeTruncatedPdf(keep = 0.3): Promise<Uint8Array> {
  const full = await makePdf([['Some text on the first page.'], ['More text.']]);
  return full.subarray(0, Math.floor(full.length * keep));
}

/** `%PDF-1.7` followed by deterministic garbage. */
export function makeGarbagePdf(bytes = 4096): Buffer {
  const out = Buffer.alloc(bytes);
  let x = 0x2545_5044;
  for (let i = 0; i < bytes; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  Buffer.from('%PDF-1.7\n').copy(out);
  return out;
}

// ---------------------------------------------------------------------------
// An encrypted PDF, by hand (pdf-lib cannot encrypt)
// ---------------------------------------------------------------------------

/** RC4 (ARCFOUR): the cipher of the PDF standard security handler, revisions 2-4. */
export function rc4(key: Uint8Array, data: Uint8Array): Buffer {
  const s = Array.from({ length: 256 }, (_, i) => i);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + s[i]! + key[i % key.length]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 0xff;
    j = (j + s[i]!) & 0xff;
    [s[i], s[j]] = [s[j]!, s[i]!];
    out[n] = data[n]! ^ s[(s[i]! + s[j]!) & 0xff]!;
  }
  return out;
}

const md5 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('md5');
  for (const p of parts) h.update(p);
  return h.digest();
};

/** The standard password padding string (PDF 32000-1, 7.6.3.3). */
const PAD = Buffer.from('28bf4e5e4e758a4164004e56fffa01082e2e00b6d0683e802f0ca9fe6453697a', 'hex');
const padPassword = (pw: string): Buffer => Buffer.concat([Buffer.from(pw, 'latin1'), PAD]).subarray(0, 32);

/**
 * A one-page PDF encrypted with the standard security handler, revision 3 (128-bit RC4).
 * With a non-empty `userPassword` a reader needs it to open the file; with an empty one it
 * opens freely (only the owner password guards the permissions).
 */
export function makeEncryptedPdf(opts: { userPassword: string; ownerPassword?: string; text: string }): Buffer {
  const n = 16; // key length in bytes (128 bits)
  const permissions = -3904; // printing and copying not allowed
  const id = md5(Buffer.from(`parley-test-${opts.text}`));

  // Algorithm 3: the O entry.
  let ownerKey = md5(padPassword(opts.ownerPassword ?? 'owner-secret'));
  for (let i = 0; i < 50; i++) ownerKey = md5(ownerKey);
  let o = rc4(ownerKey, padPassword(opts.userPassword));
  for (let i = 1; i <= 19; i++)
    o = rc4(
      ownerKey.map((b) => b ^ i),
      o,
    );

  // Algorithm 2: the file key.
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  let key = md5(padPassword(opts.userPassword), o, p, id);
  for (let i = 0; i < 50; i++) key = md5(key.subarray(0, n));
  key = key.subarray(0, n);

  // Algorithm 5: the U entry (16 bytes that matter, 16 of padding).
  let u = rc4(key, md5(PAD, id));
  for (let i = 1; i <= 19; i++)
    u = rc4(
      key.map((b) => b ^ i),
      u,
    );
  const uEntry = Buffer.concat([u, Buffer.alloc(16, 0x55)]);

  // Algorithm 1: every string and stream is encrypted with a per-object key.
  const objectKey = (num: number, gen: number): Buffer =>
    md5(key, Buffer.from([num & 0xff, (num >> 8) & 0xff, (num >> 16) & 0xff, gen & 0xff, (gen >> 8) & 0xff])).subarray(
      0,
      Math.min(n + 5, 16),
    );
  const escaped = opts.text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = rc4(objectKey(4, 0), Buffer.from(`BT /F1 12 Tf 72 720 Td (${escaped}) Tj ET`, 'latin1'));

  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>'),
    Buffer.concat([Buffer.from(`<< /Length ${content.length} >>\nstream\n`), content, Buffer.from('\nendstream')]),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
    Buffer.from(`<< /Filter /Standard /V 2 /R 3 /Length 128 /O <${o.toString('hex')}> /U <${uEntry.toString('hex')}> /P ${permissions} >>`),
  ];
  return buildPdf(objects, `/Encrypt 6 0 R /ID [<${id.toString('hex')}> <${id.toString('hex')}>]`);
}

/** A PDF file of the given objects (numbered from 1, the first one the catalog): header, xref, trailer. */
export function buildPdf(objects: (string | Buffer)[], trailerEntries = ''): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(offset);
    const obj = Buffer.concat([
      Buffer.from(`${i + 1} 0 obj\n`),
      Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'),
      Buffer.from('\nendobj\n'),
    ]);
    chunks.push(obj);
    offset += obj.length;
  });
  const xref = [
    `xref\n0 ${objects.length + 1}\n`,
    '0000000000 65535 f \n',
    ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`),
  ].join('');
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerEntries} >>\nstartxref\n${offset}\n%%EOF\n`;
  chunks.push(Buffer.from(xref + trailer, 'latin1'));
  return Buffer.concat(chunks);
}

/**
 * A one-page PDF in Chinese with a non-embedded CID font (STSong-Light, UniGB-UCS2-H): its text
 * can only be decoded with pdfjs's packed CMaps.
 */
export function makeCjkPdf(text: string): Buffer {
  const hex = Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase();
  const stream = `BT /F1 24 Tf 72 700 Td <${hex}> Tj ET`;
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [6 0 R] >>',
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 4 >> /FontDescriptor 7 0 R >>',
    '<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 700 /StemV 80 >>',
  ]);
}

// ---------------------------------------------------------------------------
// DOCX with jszip
// ---------------------------------------------------------------------------

export interface DocxParagraph {
  text: string;
  style?: 'Heading1' | 'Heading2' | 'Heading3';
}

const xmlEscape = (s: string): string =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] as string);
const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

/** A minimal valid .docx: content types, package and document relationships, styles, core properties. */
export async function makeDocx(paragraphs: DocxParagraph[], opts: { title?: string; styles?: boolean } = {}): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>
<Default Extension="xml" ContentType="application/xml"/>
<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>
<Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/>
<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>
</Types>`,
  );
  zip.file(
    '_rels/.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${REL}">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>
<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>
</Relationships>`,
  );
  zip.file(
    'word/_rels/document.xml.rels',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="${REL}">
<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
</Relationships>`,
  );
  if (opts.styles !== false) {
    const heading = (level: number): string =>
      `<w:style w:type="paragraph" w:styleId="Heading${level}"><w:name w:val="heading ${level}"/><w:basedOn w:val="Normal"/><w:pPr><w:outlineLvl w:val="${level - 1}"/></w:pPr></w:style>`;
    zip.file(
      'word/styles.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>${heading(1)}${heading(2)}${heading(3)}</w:styles>`,
    );
  }
  const body = paragraphs
    .map(
      (p) =>
        `<w:p>${p.style ? `<w:pPr><w:pStyle w:val="${p.style}"/></w:pPr>` : ''}<w:r><w:t xml:space="preserve">${xmlEscape(p.text)}</w:t></w:r></w:p>`,
    )
    .join('');
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="${W}"><w:body>${body}<w:sectPr/></w:body></w:document>`,
  );
  zip.file(
    'docProps/core.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${opts.title === undefined ? '' : `<dc:title>${xmlEscape(opts.title)}</dc:title>`}<dc:creator>Parley tests</dc:creator></cp:coreProperties>`,
  );
  return zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** A zip that is not a Word document (an .xlsx-like archive). */
export async function makeOtherZip(): Promise<Buffer> {
  const zip = new JSZip();
  zip.file('xl/workbook.xml', '<workbook/>');
  return zip.generateAsync({ type: 'nodebuffer' });
}
