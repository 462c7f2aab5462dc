import { isNotContent } from './html-boilerplate.js';
import type { ElementNode, HtmlNode } from './html-tree.js';

/**
 * Renders parsed HTML as markdown-flavoured text: `#` headings (with ` {#id}` when the heading
 * has a usable id), `- ` list items, fenced `pre` blocks, `a | b` table rows, `[text](url)` for
 * absolute http(s) links. The walk is iterative, so absurd nesting cannot overflow the stack;
 * what to leave out (boilerplate, scripts…) is the caller's `skip` predicate.
 */

type BlockKind = 'para' | 'heading' | 'li' | 'row' | 'code';
interface Block {
  kind: BlockKind;
  text: string;
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Elements that start and end a block (a paragraph break around them). */
const BLOCK = new Set([
  'p',
  'div',
  'section',
  'article',
  'main',
  'header',
  'footer',
  'nav',
  'aside',
  'form',
  'blockquote',
  'dl',
  'dt',
  'dd',
  'figure',
  'figcaption',
  'address',
  'details',
  'summary',
  'center',
  'fieldset',
  'legend',
  'caption',
  'hgroup',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'body',
  'html',
  'hr',
  'br',
  'ul',
  'ol',
  'menu',
  'li',
  'pre',
  'tr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'search',
  'dialog',
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
    if (node.type === 'text') {
      out += node.text;
      continue;
    }
    if (node.name === 'br') out += '\n';
    if (node !== pre && isNotContent(node)) continue;
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

interface Frame {
  node: HtmlNode;
  exit: boolean;
}
interface LinkState {
  href: string | null;
  start: number;
  blockCount: number;
}

/**
 * A heading's own `id`, the one thing a link to `page#id` can rely on existing on the page
 * (sources link to it). Only ids that need no escaping in a URL fragment or in ` {#id}`.
 */
function pageAnchorOf(el: ElementNode): string | null {
  const id = el.attrs.get('id')?.trim();
  return id && /^[A-Za-z0-9_][\w.:-]{0,127}$/.test(id) ? id : null;
}

export class MarkdownRenderer {
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

  constructor(private readonly skip: (el: ElementNode) => boolean) {}

  render(roots: ElementNode[]): string {
    for (const root of roots) {
      const frames: Frame[] = [{ node: root, exit: false }];
      while (frames.length > 0) {
        const frame = frames.pop() as Frame;
        if (frame.node.type === 'text') {
          this.out.append(frame.node.text);
          continue;
        }
        if (frame.exit) {
          this.leave(frame.node);
          continue;
        }
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
    if (this.cellDepth > 0 || this.headingDepth > 0) {
      this.out.append(' ');
      return;
    }
    const item = this.items[this.items.length - 1];
    // After an item's first block, later blocks of the same item are indented continuations.
    if (this.out.flush(true) && item !== undefined) this.out.begin('li', '  '.repeat(item));
  }

  /** Returns whether to descend into the element's children. */
  private enter(el: ElementNode): boolean {
    if (this.skip(el)) {
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
