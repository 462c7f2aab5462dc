/**
 * parse5 (the WHATWG parsing algorithm, spec-exact: adoption agency, foster parenting, implied
 * html/head/body) turned into the server's tree shape, so the same extraction runs on it: the
 * reference `html-bench.ts` measures agreement against.
 */
import { parse } from 'parse5';
import { element, type ElementNode } from '../../../server/src/knowledge/html-tree.js';

interface P5Node {
  nodeName: string;
  tagName?: string;
  value?: string;
  attrs?: Array<{ name: string; value: string }>;
  childNodes?: P5Node[];
  content?: P5Node;
}

export function parse5Tree(html: string): ElementNode {
  const root = element('#document');
  const pending: Array<{ from: P5Node; into: ElementNode }> = [{ from: parse(html) as unknown as P5Node, into: root }];
  while (pending.length > 0) {
    const { from, into } = pending.pop() as { from: P5Node; into: ElementNode };
    const children = from.nodeName === 'template' && from.content ? from.content.childNodes : from.childNodes;
    for (const child of children ?? []) {
      if (child.nodeName === '#text') {
        const last = into.children[into.children.length - 1];
        if (last?.type === 'text') last.text += child.value ?? '';
        else into.children.push({ type: 'text', text: child.value ?? '' });
      } else if (child.tagName) {
        const attrs = new Map<string, string>();
        for (const a of child.attrs ?? []) if (!attrs.has(a.name)) attrs.set(a.name, a.value);
        const el = element(child.tagName.toLowerCase(), attrs);
        into.children.push(el);
        pending.push({ from: child, into: el });
      }
    }
  }
  return root;
}
