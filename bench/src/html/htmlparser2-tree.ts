// htmlparser2 12 is the server workspace's dependency; the repository root has an older one (9,
// pulled in by another package), which is what a bare specifier would find from here.
import { Parser } from '../../../server/node_modules/htmlparser2/dist/index.js';
import { element, type ElementNode } from '../../../server/src/knowledge/html-tree.js';

/**
 * The server's tree shape built by htmlparser2 (a browser-like tokenizer with the common
 * implied-end-tag rules, RAWTEXT/RCDATA elements and foreign content): the candidate
 * `html-bench.ts` measured against the server's own parser (server/src/knowledge/html-tree.ts).
 */

/** Deeper nesting is flattened: it only ever comes from broken or hostile markup. */
const MAX_DEPTH = 400;

/**
 * Parses a document or fragment; never throws on malformed input (it degrades like a browser:
 * a tag cut off at the end is dropped, a lone `<` is text).
 */
export function htmlparser2Tree(html: string): ElementNode {
  const root = element('#document');
  const stack: ElementNode[] = [root];
  let top = root;
  let flattened = 0; // open elements past MAX_DEPTH, kept as children of the deepest one
  let current = root; // the element whose attributes are being read
  const parser = new Parser(
    {
      // The element is created at its name and filled by the attributes that follow (cheaper than
      // the attribute object onopentag would build); htmlparser2 has applied implied closes first.
      onopentagname(name) {
        const node = element(name);
        top.children.push(node);
        current = node;
        if (stack.length >= MAX_DEPTH) {
          flattened++;
          return;
        }
        stack.push(node);
        top = node;
      },
      onattribute(name, value) {
        if (!current.attrs.has(name)) current.attrs.set(name, value);
      },
      // htmlparser2 reports every close, implied ones and void elements included, innermost first.
      onclosetag() {
        if (flattened > 0) {
          flattened--;
          return;
        }
        if (stack.length > 1) stack.pop();
        top = stack[stack.length - 1] as ElementNode;
      },
      ontext(text) {
        const last = top.children[top.children.length - 1];
        if (last?.type === 'text') last.text += text;
        else top.children.push({ type: 'text', text });
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  useTopLastStack(parser);
  parser.end(html);
  return root;
}

/**
 * htmlparser2 keeps its open elements top-first (`unshift`/`shift`), which is quadratic in the
 * nesting depth: 50,000 nested divs took 2 s. This stack offers the operations its Parser uses on
 * a top-last array, each in constant time (`indexOf`/`includes` scan from the top). Installed
 * only on the empty array it replaces; html-to-text.test's pathological-nesting case checks it.
 */
class TopLastStack {
  private readonly items: string[] = [];
  get length(): number {
    return this.items.length;
  }
  set length(n: number) {
    this.items.length = n;
  }
  /** The current element (the only index the Parser reads while parsing). */
  get 0(): string | undefined {
    return this.items[this.items.length - 1];
  }
  unshift(name: string): number {
    return this.items.push(name);
  }
  shift(): string | undefined {
    return this.items.pop();
  }
  /** Distance from the top, as in the top-first array. */
  indexOf(name: string): number {
    const at = this.items.lastIndexOf(name);
    return at === -1 ? -1 : this.items.length - 1 - at;
  }
  includes(name: string): boolean {
    return this.items.lastIndexOf(name) !== -1;
  }
}

function useTopLastStack(parser: Parser): void {
  const internals = parser as unknown as { stack?: unknown };
  if (Array.isArray(internals.stack) && internals.stack.length === 0) internals.stack = new TopLastStack();
}
