import { decodeHTML, decodeHTMLAttribute } from 'entities';

/**
 * HTML → markdown-flavoured plain text for indexing (character references: `entities`).
 *
 * Three linear stages: a tolerant tokenizer (never throws, never backtracks over the whole
 * document), a tree builder with the browser's common implied-end-tag rules, and an
 * iterative renderer (no recursion, so absurd nesting cannot overflow the stack).
 * Light main-content extraction: boilerplate (nav, footer, aside, forms, cookie banners)
 * is dropped, and <main> / <article> content is preferred when present.
 */

// ---------------------------------------------------------------------------
// Entities
// ---------------------------------------------------------------------------

/**
 * Character references decoded as the HTML standard says, by `entities` (all 2,231 named
 * references, the legacy ones browsers accept without a semicolon such as "&copy 2024" or
 * "&eacute", numeric references with the Windows-1252 remapping of C1 controls and U+FFFD for
 * invalid code points); anything that is not a reference stays as written ("AT&T").
 */
export function decodeEntities(text: string): string {
  return text.includes('&') ? decodeHTML(text) : text;
}

/** Attribute values: a legacy reference followed by "=" or a letter stays text ("?a=1&copy=2"). */
function decodeAttribute(text: string): string {
  return text.includes('&') ? decodeHTMLAttribute(text) : text;
}

// ---------------------------------------------------------------------------
// Tokenizer
// ---------------------------------------------------------------------------

type Token =
  | { kind: 'text'; text: string }
  | { kind: 'start'; name: string; attrs: Map<string, string>; selfClosing: boolean }
  | { kind: 'end'; name: string };

/** Elements whose content is not markup; RCDATA ones (title, textarea) still decode entities. */
const RAW_TEXT = new Set(['script', 'style', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript', 'plaintext']);
const RCDATA = new Set(['title', 'textarea']);

function isSpace(ch: string | undefined): boolean {
  return ch === ' ' || ch === '\n' || ch === '\t' || ch === '\r' || ch === '\f';
}

function isAsciiLetter(ch: string | undefined): boolean {
  return ch !== undefined && ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z'));
}

interface TagParse { token: Token; next: number }

/** Parses attributes from `i` up to and including `>`; null when the input ends first. */
function parseAttributes(html: string, from: number): { attrs: Map<string, string>; selfClosing: boolean; next: number } | null {
  const attrs = new Map<string, string>();
  let i = from;
  for (;;) {
    while (isSpace(html[i])) i++;
    if (i >= html.length) return null;
    if (html[i] === '>') return { attrs, selfClosing: false, next: i + 1 };
    if (html[i] === '/') {
      if (html[i + 1] === '>') return { attrs, selfClosing: true, next: i + 2 };
      i++;
      continue;
    }
    const nameStart = i;
    i++; // the first character is part of the name whatever it is ("=" included), so we always advance
    while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>' && html[i] !== '=') i++;
    const name = html.slice(nameStart, i).toLowerCase();
    while (isSpace(html[i])) i++;
    let value = '';
    if (html[i] === '=') {
      i++;
      while (isSpace(html[i])) i++;
      const quote = html[i];
      if (quote === '"' || quote === "'") {
        const close = html.indexOf(quote, i + 1);
        if (close === -1) return null;
        value = html.slice(i + 1, close);
        i = close + 1;
      } else {
        const valueStart = i;
        while (i < html.length && !isSpace(html[i]) && html[i] !== '>') i++;
        value = html.slice(valueStart, i);
      }
    }
    if (!attrs.has(name)) attrs.set(name, decodeAttribute(value));
  }
}

function parseStartTag(html: string, lt: number): TagParse | null {
  let i = lt + 1;
  while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') i++;
  const name = html.slice(lt + 1, i).toLowerCase();
  const rest = parseAttributes(html, i);
  if (!rest) return null;
  return { token: { kind: 'start', name, attrs: rest.attrs, selfClosing: rest.selfClosing }, next: rest.next };
}

/** Index just past the next `>` at or after `from`, or the end of input. */
function skipPast(html: string, from: number, marker = '>'): number {
  const at = html.indexOf(marker, from);
  return at === -1 ? html.length : at + marker.length;
}

/** Tokenizes a document; malformed input degrades to text or is skipped, like a browser. */
function tokenizeHtml(html: string): Token[] {
  const tokens: Token[] = [];
  const pushText = (text: string): void => {
    if (text) tokens.push({ kind: 'text', text: decodeEntities(text) });
  };
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf('<', i);
    if (lt === -1) { pushText(html.slice(i)); break; }
    pushText(html.slice(i, lt));
    const next = html[lt + 1];
    if (html.startsWith('<!--', lt)) {
      // "<!-->" and "<!--->" are (abrupt) empty comments.
      if (html.startsWith('<!-->', lt)) i = lt + 5;
      else if (html.startsWith('<!--->', lt)) i = lt + 6;
      else i = skipPast(html, lt + 4, '-->');
    } else if (next === '!' || next === '?') {
      i = skipPast(html, lt + 2); // doctype, CDATA, processing instruction: no text for us
    } else if (next === '/') {
      i = readEndTag(html, lt, tokens);
    } else if (isAsciiLetter(next)) {
      const parsed = parseStartTag(html, lt);
      if (!parsed) break; // EOF inside a tag: a browser drops the partial tag too
      tokens.push(parsed.token);
      i = parsed.next;
      if (parsed.token.kind === 'start' && (RAW_TEXT.has(parsed.token.name) || RCDATA.has(parsed.token.name))) {
        i = readRawText(html, i, parsed.token.name, tokens);
      }
    } else {
      pushText('<'); // a lone "<" (e.g. "a < b") is text
      i = lt + 1;
    }
  }
  return tokens;
}

function readEndTag(html: string, lt: number, tokens: Token[]): number {
  if (!isAsciiLetter(html[lt + 2])) return skipPast(html, lt + 2); // "</>" or "</ junk>"
  let i = lt + 2;
  while (i < html.length && !isSpace(html[i]) && html[i] !== '/' && html[i] !== '>') i++;
  tokens.push({ kind: 'end', name: html.slice(lt + 2, i).toLowerCase() });
  return skipPast(html, i);
}

/** Content of script/style/title/...: text until the matching end tag (or EOF). */
function readRawText(html: string, from: number, name: string, tokens: Token[]): number {
  const endRe = new RegExp(`</${name}(?=[\\s/>]|$)`, 'ig');
  endRe.lastIndex = from;
  const match = endRe.exec(html);
  const end = match ? match.index : html.length;
  const raw = html.slice(from, end);
  if (raw) tokens.push({ kind: 'text', text: RCDATA.has(name) ? decodeEntities(raw) : raw });
  if (!match) return html.length;
  tokens.push({ kind: 'end', name });
  return skipPast(html, end);
}

// ---------------------------------------------------------------------------
// Tree
// ---------------------------------------------------------------------------

export interface ElementNode {
  type: 'element';
  name: string;
  attrs: Map<string, string>;
  children: HtmlNode[];
}
export interface TextNode { type: 'text'; text: string }
export type HtmlNode = ElementNode | TextNode;

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'keygen']);
const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'cite', 'code', 'data', 'dfn', 'em', 'font', 'i', 'kbd', 'mark', 'q', 's',
  'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'big', 'tt', 'strike', 'nobr', 'label',
]);
/** Starting one of these closes an open <p> (HTML's "close a p element" rule). */
const CLOSES_P = new Set([
  'address', 'article', 'aside', 'blockquote', 'details', 'dialog', 'div', 'dl', 'fieldset', 'figcaption',
  'figure', 'footer', 'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hgroup', 'hr', 'main', 'menu',
  'nav', 'ol', 'p', 'pre', 'section', 'table', 'ul', 'li', 'dd', 'dt',
]);
const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** For an element that implicitly closes a previous sibling: which names it closes, and where the search stops. */
const IMPLIED_CLOSE: Record<string, { closes: string[]; stopAt: string[] }> = {
  li: { closes: ['li'], stopAt: ['ul', 'ol', 'menu', 'table'] },
  dt: { closes: ['dt', 'dd'], stopAt: ['dl', 'table'] },
  dd: { closes: ['dt', 'dd'], stopAt: ['dl', 'table'] },
  tr: { closes: ['tr'], stopAt: ['table', 'thead', 'tbody', 'tfoot'] },
  td: { closes: ['td', 'th'], stopAt: ['tr', 'table'] },
  th: { closes: ['td', 'th'], stopAt: ['tr', 'table'] },
  thead: { closes: ['thead', 'tbody', 'tfoot'], stopAt: ['table'] },
  tbody: { closes: ['thead', 'tbody', 'tfoot'], stopAt: ['table'] },
  tfoot: { closes: ['thead', 'tbody', 'tfoot'], stopAt: ['table'] },
  option: { closes: ['option'], stopAt: ['select', 'datalist'] },
};
/** Deeper nesting is flattened: it only ever comes from broken or hostile markup. */
const MAX_DEPTH = 400;

function element(name: string, attrs = new Map<string, string>()): ElementNode {
  return { type: 'element', name, attrs, children: [] };
}

class TreeBuilder {
  readonly root = element('#document');
  private readonly stack: ElementNode[] = [this.root];

  private get top(): ElementNode {
    return this.stack[this.stack.length - 1] ?? this.root;
  }

  text(text: string): void {
    const last = this.top.children[this.top.children.length - 1];
    if (last?.type === 'text') last.text += text;
    else this.top.children.push({ type: 'text', text });
  }

  start(name: string, attrs: Map<string, string>, selfClosing: boolean): void {
    this.closeImplied(name);
    const node = element(name, attrs);
    this.top.children.push(node);
    const inForeign = this.stack.some((el) => el.name === 'svg' || el.name === 'math');
    // "/>" only self-closes in SVG/MathML; in HTML "<div/>" opens a div, as browsers do.
    const closed = VOID.has(name) || (selfClosing && (inForeign || name === 'svg' || name === 'math'));
    if (!closed && this.stack.length < MAX_DEPTH) this.stack.push(node);
  }

  end(name: string): void {
    if (name === 'br') { this.start('br', new Map(), true); return; }
    const at = this.findOpen(name);
    if (at === -1) {
      // A stray </p> still breaks the paragraph in browsers.
      if (name === 'p') this.top.children.push(element('p'));
      return;
    }
    this.stack.length = at;
  }

  private findOpen(name: string): number {
    for (let i = this.stack.length - 1; i > 0; i--) {
      if ((this.stack[i] as ElementNode).name === name) return i;
    }
    return -1;
  }

  private closeImplied(name: string): void {
    if (CLOSES_P.has(name)) this.closeOpenParagraph();
    if (HEADINGS.has(name) && HEADINGS.has(this.top.name)) this.stack.pop();
    const rule = IMPLIED_CLOSE[name];
    if (!rule) return;
    for (let i = this.stack.length - 1; i > 0; i--) {
      const open = (this.stack[i] as ElementNode).name;
      if (rule.closes.includes(open)) { this.stack.length = i; return; }
      if (rule.stopAt.includes(open)) return;
    }
  }

  /** Closes a <p> that is open under only phrasing elements (<p><b>x<div> closes the p). */
  private closeOpenParagraph(): void {
    for (let i = this.stack.length - 1; i > 0; i--) {
      const open = (this.stack[i] as ElementNode).name;
      if (open === 'p') { this.stack.length = i; return; }
      if (!PHRASING.has(open)) return;
    }
  }
}

/** The tolerant parse tree (also used by knowledge/web/main-content.ts). */
export function buildTree(html: string): ElementNode {
  const builder = new TreeBuilder();
  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') builder.text(token.text);
    else if (token.kind === 'start') builder.start(token.name, token.attrs, token.selfClosing);
    else builder.end(token.name);
  }
  return builder.root;
}

// ---------------------------------------------------------------------------
// What to drop
// ---------------------------------------------------------------------------

/** Never content, whatever the page: code, media, metadata, controls. */
const ALWAYS_DROP = new Set([
  'script', 'style', 'noscript', 'template', 'svg', 'math', 'head', 'title', 'iframe', 'object', 'embed',
  'canvas', 'video', 'audio', 'map', 'button', 'select', 'textarea', 'input', 'dialog', 'noembed', 'noframes',
]);
/** Page chrome, dropped unless that leaves nothing at all. */
const BOILERPLATE = new Set(['nav', 'footer', 'aside', 'form']);
const BOILERPLATE_ROLES = new Set(['navigation', 'contentinfo', 'complementary', 'search', 'banner', 'dialog', 'alertdialog']);
const BANNER_RE = /cookie|consent|gdpr/i;
const NEVER_BANNER = new Set(['html', 'body', 'main', 'article', '#document']);

function isHidden(el: ElementNode): boolean {
  if (el.attrs.has('hidden') || el.attrs.get('aria-hidden') === 'true') return true;
  const style = (el.attrs.get('style') ?? '').toLowerCase().replace(/\s+/g, '');
  return style.includes('display:none') || style.includes('visibility:hidden');
}

/** ASP.NET-style pages wrap the whole body in one <form>; that one is content, not chrome. */
function isPageWrappingForm(el: ElementNode): boolean {
  return findAll(el, (n) => n.name === 'main' || n.name === 'article' || n.name === 'h1' || n.name === 'h2', () => false).length > 0;
}

function isDropped(el: ElementNode, relaxed: boolean): boolean {
  if (ALWAYS_DROP.has(el.name) || isHidden(el)) return true;
  if (relaxed) return false;
  if (BOILERPLATE.has(el.name)) return !(el.name === 'form' && isPageWrappingForm(el));
  if (BOILERPLATE_ROLES.has((el.attrs.get('role') ?? '').toLowerCase())) return true;
  if (NEVER_BANNER.has(el.name)) return false;
  return BANNER_RE.test(`${el.attrs.get('id') ?? ''} ${el.attrs.get('class') ?? ''}`);
}

/** Outermost elements matching `match`, in document order, not descending into `skip`ped subtrees. */
function findAll(root: ElementNode, match: (el: ElementNode) => boolean, skip: (el: ElementNode) => boolean): ElementNode[] {
  const found: ElementNode[] = [];
  const pending: HtmlNode[] = [...root.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop() as HtmlNode;
    if (node.type !== 'element' || skip(node)) continue;
    if (match(node)) { found.push(node); continue; }
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as HtmlNode);
  }
  return found;
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

type BlockKind = 'para' | 'heading' | 'li' | 'row' | 'code';
interface Block { kind: BlockKind; text: string }

/** Elements that start and end a block (a paragraph break around them). */
const BLOCK = new Set([
  'p', 'div', 'section', 'article', 'main', 'header', 'footer', 'nav', 'aside', 'form', 'blockquote', 'dl',
  'dt', 'dd', 'figure', 'figcaption', 'address', 'details', 'summary', 'center', 'fieldset', 'legend',
  'caption', 'hgroup', 'table', 'thead', 'tbody', 'tfoot', 'body', 'html', 'hr', 'br', 'ul', 'ol', 'menu',
  'li', 'pre', 'tr', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'search', 'dialog',
]);

/** Soft hyphens and zero-width spaces/joiners-for-wrapping: invisible, but they split words. */
const INVISIBLE_RE = /[\u00ad\u200b\u2060\ufeff]/g;
const MARKDOWN_LOOKALIKE_RE = /^(?:#{1,6}(?:\s|$)|`{3,}|~{3,})/;

/** Collects blocks; the current block's text accumulates raw and is whitespace-collapsed on flush. */
class Output {
  readonly blocks: Block[] = [];
  buffer = '';
  private prefix = '';
  private kind: BlockKind = 'para';

  /** Ends the current block. With keepPending, an empty block keeps its prefix (<li><p>text). */
  flush(keepPending = false): boolean {
    let text = this.buffer.replace(INVISIBLE_RE, '').replace(/\s+/g, ' ').trim();
    this.buffer = '';
    // Text that merely looks like markdown syntax ("# of users", "```") must not become a heading or fence.
    if (this.kind === 'para' && MARKDOWN_LOOKALIKE_RE.test(text)) text = `\\${text}`;
    if (text) this.blocks.push({ kind: this.kind, text: this.prefix + text });
    else if (keepPending) return false;
    this.prefix = '';
    this.kind = 'para';
    return text !== '';
  }

  begin(kind: BlockKind, prefix: string): void {
    this.flush();
    this.kind = kind;
    this.prefix = prefix;
  }

  append(text: string): void {
    this.buffer += text;
  }

  code(text: string, lang: string): void {
    this.flush();
    const body = text.replace(/^\n/, '').trimEnd();
    if (body.trim()) this.blocks.push({ kind: 'code', text: `\`\`\`${lang}\n${body}\n\`\`\`` });
  }

  toString(): string {
    this.flush();
    let out = '';
    this.blocks.forEach((block, i) => {
      const prev = this.blocks[i - 1];
      // List items and table rows stay on consecutive lines; everything else is a paragraph.
      const tight = prev && prev.kind === block.kind && (block.kind === 'li' || block.kind === 'row');
      out += (i === 0 ? '' : tight ? '\n' : '\n\n') + block.text;
    });
    return out;
  }
}

/** Raw text of a <pre>, keeping its layout; <br> inside it is a newline. */
function preText(pre: ElementNode): string {
  let out = '';
  const pending: HtmlNode[] = [pre];
  while (pending.length > 0) {
    const node = pending.pop() as HtmlNode;
    if (node.type === 'text') { out += node.text; continue; }
    if (node.name === 'br') out += '\n';
    if (node !== pre && ALWAYS_DROP.has(node.name)) continue;
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as HtmlNode);
  }
  return out.replace(/\u00a0/g, ' ');
}

function codeLanguage(pre: ElementNode): string {
  const code = pre.children.find((c): c is ElementNode => c.type === 'element' && c.name === 'code');
  const classes = `${pre.attrs.get('class') ?? ''} ${code?.attrs.get('class') ?? ''}`;
  return /(?:^|\s)(?:language|lang)-([\w+#.-]+)/.exec(classes)?.[1] ?? '';
}

function absoluteHttpUrl(href: string | undefined): string | null {
  if (!href || !/^https?:\/\/[^\s/]/i.test(href.trim())) return null;
  return href.trim().replace(/\s/g, '%20').replace(/\(/g, '%28').replace(/\)/g, '%29');
}

interface Frame { node: HtmlNode; exit: boolean }
interface LinkState { href: string | null; start: number; blockCount: number }

/** Walks one subtree (iteratively) and writes it as markdown-ish blocks. */
/**
 * A heading's own `id`, the one thing a link to `page#id` can rely on existing on the page
 * (sources link to it). Only ids that need no escaping in a URL fragment or in ` {#id}`.
 */
function pageAnchorOf(el: ElementNode): string | null {
  const id = el.attrs.get('id')?.trim();
  return id && /^[A-Za-z0-9_][\w.:-]{0,127}$/.test(id) ? id : null;
}

class Renderer {
  private readonly out = new Output();
  private listDepth = 0;
  private cellDepth = 0;
  private headingDepth = 0;
  /** The `id` of the heading being rendered, written after its text as ` {#id}` (chunking.ts reads it). */
  private headingId: string | null = null;
  private readonly items: number[] = []; // list depth of each open <li>
  private readonly rows: number[] = []; // cells seen so far in each open <tr>
  private readonly links: LinkState[] = [];
  private readonly codes: number[] = [];

  constructor(private readonly relaxed: boolean) {}

  render(roots: ElementNode[]): string {
    for (const root of roots) {
      const frames: Frame[] = [{ node: root, exit: false }];
      while (frames.length > 0) {
        const frame = frames.pop() as Frame;
        if (frame.node.type === 'text') { this.out.append(frame.node.text); continue; }
        if (frame.exit) { this.leave(frame.node); continue; }
        if (!this.enter(frame.node)) continue;
        frames.push({ node: frame.node, exit: true });
        for (let i = frame.node.children.length - 1; i >= 0; i--) {
          frames.push({ node: frame.node.children[i] as HtmlNode, exit: false });
        }
      }
      this.out.flush();
    }
    return this.out.toString();
  }

  /** A block boundary; inside a table cell it is only a space, inside a list item it continues the item. */
  private boundary(): void {
    if (this.cellDepth > 0 || this.headingDepth > 0) { this.out.append(' '); return; }
    const item = this.items[this.items.length - 1];
    // After an item's first block, later blocks of the same item are indented continuations.
    if (this.out.flush(true) && item !== undefined) this.out.begin('li', '  '.repeat(item));
  }

  /** Returns whether to descend into the element's children. */
  private enter(el: ElementNode): boolean {
    if (isDropped(el, this.relaxed)) {
      if (BLOCK.has(el.name)) this.boundary();
      return false;
    }
    const name = el.name;
    if (HEADINGS.has(name)) {
      if (this.cellDepth > 0) return true;
      if (this.headingDepth === 0) this.headingId = pageAnchorOf(el);
      this.out.begin('heading', `${'#'.repeat(Number(name[1]))} `);
      this.headingDepth++;
    } else if (name === 'li') {
      this.out.begin('li', `${'  '.repeat(Math.max(0, this.listDepth - 1))}- `);
      this.items.push(Math.max(1, this.listDepth));
    } else if (name === 'ul' || name === 'ol' || name === 'menu') {
      this.boundary();
      this.listDepth++;
    } else if (name === 'pre') {
      if (this.cellDepth > 0 || this.headingDepth > 0) return true;
      this.out.code(preText(el), codeLanguage(el));
      return false;
    } else if (name === 'tr') {
      this.out.begin('row', '');
      this.rows.push(0);
    } else if (name === 'td' || name === 'th') {
      const cells = this.rows.pop() ?? 0;
      if (cells > 0) this.out.append(' | ');
      this.rows.push(cells + 1);
      this.cellDepth++;
    } else if (name === 'a') {
      this.links.push({ href: absoluteHttpUrl(el.attrs.get('href')), start: this.out.buffer.length, blockCount: this.out.blocks.length });
    } else if (name === 'code') {
      this.codes.push(this.out.buffer.length);
      this.out.append('`');
    } else if (BLOCK.has(name)) {
      this.boundary();
    }
    return true;
  }

  private leave(el: ElementNode): void {
    const name = el.name;
    if (HEADINGS.has(name)) {
      if (this.headingDepth === 0) return;
      this.headingDepth--;
      if (this.headingDepth === 0) {
        if (this.headingId) this.out.append(` {#${this.headingId}}`);
        this.headingId = null;
        this.out.flush();
      }
    } else if (name === 'li') {
      this.out.flush();
      this.items.pop();
    } else if (name === 'ul' || name === 'ol' || name === 'menu') {
      this.listDepth--;
      this.boundary();
    } else if (name === 'tr') {
      this.out.flush();
      this.rows.pop();
    } else if (name === 'td' || name === 'th') {
      this.cellDepth--;
    } else if (name === 'a') {
      this.closeLink();
    } else if (name === 'code') {
      this.closeCode();
    } else if (BLOCK.has(name)) {
      this.boundary();
    }
  }

  /** `[text](href)` for absolute http(s) links whose text is on one block and is not the URL itself. */
  private closeLink(): void {
    const link = this.links.pop();
    if (!link?.href || this.headingDepth > 0 || link.blockCount !== this.out.blocks.length) return;
    const raw = this.out.buffer.slice(link.start);
    const text = raw.replace(/\s+/g, ' ').trim();
    if (!text || /[[\]]/.test(text) || text === link.href || `${text}/` === link.href) return;
    const lead = /^\s/.test(raw) ? ' ' : '';
    const trail = /\s$/.test(raw) ? ' ' : '';
    this.out.buffer = `${this.out.buffer.slice(0, link.start)}${lead}[${text}](${link.href})${trail}`;
  }

  private closeCode(): void {
    const start = this.codes.pop();
    if (start === undefined || start >= this.out.buffer.length) return;
    if (this.out.buffer.slice(start + 1).trim() === '') this.out.buffer = this.out.buffer.slice(0, start);
    else this.out.append('`');
  }
}

// ---------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function textContent(el: ElementNode): string {
  let out = '';
  const pending: HtmlNode[] = [el];
  while (pending.length > 0) {
    const node = pending.pop() as HtmlNode;
    if (node.type === 'text') out += node.text;
    else for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as HtmlNode);
  }
  return out;
}

/** <title>, else the first <h1>; SVG titles are tooltips, not the page's. */
function findTitle(root: ElementNode): string | null {
  const svg = (el: ElementNode): boolean => el.name === 'svg';
  const [title] = findAll(root, (el) => el.name === 'title', svg);
  const fromTitle = title ? collapse(textContent(title)) : '';
  if (fromTitle) return fromTitle;
  const [h1] = findAll(root, (el) => el.name === 'h1', (el) => svg(el) || isDropped(el, false));
  const fromH1 = h1 ? collapse(textContent(h1)) : '';
  return fromH1 || null;
}

/** Candidate content roots, most specific first: <main>, <article>s, <body>, then everything relaxed. */
function renderContent(root: ElementNode): string {
  const strictSkip = (el: ElementNode): boolean => isDropped(el, false);
  const mains = findAll(root, (el) => el.name === 'main' || el.attrs.get('role') === 'main', strictSkip);
  const articles = findAll(root, (el) => el.name === 'article', strictSkip);
  const attempts: Array<{ roots: ElementNode[]; relaxed: boolean }> = [
    { roots: mains, relaxed: false },
    { roots: articles, relaxed: false },
    { roots: [root], relaxed: false },
    { roots: [root], relaxed: true },
  ];
  for (const attempt of attempts) {
    if (attempt.roots.length === 0) continue;
    const text = new Renderer(attempt.relaxed).render(attempt.roots);
    if (text.trim()) return text;
  }
  return '';
}

/**
 * Converts an HTML document (or fragment) to markdown-flavoured text: `#` headings,
 * `- ` list items, fenced `pre` blocks, `a | b` table rows, `[text](url)` for absolute
 * http(s) links. `title` is the <title> (else the first <h1>), null when neither exists.
 * Never throws: on an unexpected internal error it falls back to tag-stripped text.
 */
export function htmlToMarkdownText(html: string): { title: string | null; text: string } {
  const source = typeof html === 'string' ? html : String(html ?? '');
  try {
    const root = buildTree(source);
    return { title: findTitle(root), text: renderContent(root) };
  } catch {
    const stripped = source.replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ');
    return { title: null, text: collapse(decodeEntities(stripped)) };
  }
}
