import { decodeHTML, decodeHTMLAttribute } from 'entities';

/**
 * An HTML document as a plain tree: a tolerant tokenizer (never throws, never backtracks over
 * the whole document) and a tree builder with the browser's common implied-end-tag rules.
 * Kept over htmlparser2 by measurement (bench/src/html-bench.ts, issue 27): on real pages it
 * parses faster and agrees with parse5, the spec-exact parser, as often (docs/decisions.md, bench/src/html-bench.ts).
 */

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

interface TagParse {
  token: Token;
  next: number;
}

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
    if (lt === -1) {
      pushText(html.slice(i));
      break;
    }
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
export interface TextNode {
  type: 'text';
  text: string;
}
export type HtmlNode = ElementNode | TextNode;

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
  'keygen',
]);
const PHRASING = new Set([
  'a',
  'abbr',
  'b',
  'bdi',
  'bdo',
  'cite',
  'code',
  'data',
  'dfn',
  'em',
  'font',
  'i',
  'kbd',
  'mark',
  'q',
  's',
  'samp',
  'small',
  'span',
  'strong',
  'sub',
  'sup',
  'time',
  'u',
  'var',
  'big',
  'tt',
  'strike',
  'nobr',
  'label',
]);
/** Starting one of these closes an open <p> (HTML's "close a p element" rule). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'details',
  'dialog',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'ul',
  'li',
  'dd',
  'dt',
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

export function element(name: string, attrs = new Map<string, string>()): ElementNode {
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
    if (name === 'br') {
      this.start('br', new Map(), true);
      return;
    }
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
      if (rule.closes.includes(open)) {
        this.stack.length = i;
        return;
      }
      if (rule.stopAt.includes(open)) return;
    }
  }

  /** Closes a <p> that is open under only phrasing elements (<p><b>x<div> closes the p). */
  private closeOpenParagraph(): void {
    for (let i = this.stack.length - 1; i > 0; i--) {
      const open = (this.stack[i] as ElementNode).name;
      if (open === 'p') {
        this.stack.length = i;
        return;
      }
      if (!PHRASING.has(open)) return;
    }
  }
}

/** Parses a document or fragment; malformed input degrades like a browser's, never throws. */
export function parseHtml(html: string): ElementNode {
  const builder = new TreeBuilder();
  for (const token of tokenizeHtml(html)) {
    if (token.kind === 'text') builder.text(token.text);
    else if (token.kind === 'start') builder.start(token.name, token.attrs, token.selfClosing);
    else builder.end(token.name);
  }
  return builder.root;
}

/** Outermost elements matching `match`, in document order, not descending into `skip`ped subtrees. */
export function findAll(root: ElementNode, match: (el: ElementNode) => boolean, skip: (el: ElementNode) => boolean): ElementNode[] {
  const found: ElementNode[] = [];
  const pending: HtmlNode[] = [...root.children].reverse();
  while (pending.length > 0) {
    const node = pending.pop() as HtmlNode;
    if (node.type !== 'element' || skip(node)) continue;
    if (match(node)) {
      found.push(node);
      continue;
    }
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as HtmlNode);
  }
  return found;
}

export function textContent(el: ElementNode): string {
  let out = '';
  const pending: HtmlNode[] = [el];
  while (pending.length > 0) {
    const node = pending.pop() as HtmlNode;
    if (node.type === 'text') out += node.text;
    else for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as HtmlNode);
  }
  return out;
}
