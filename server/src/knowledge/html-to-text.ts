import { boilerplateFilter, isMainContent, type ChromeLevel } from './html-boilerplate.js';
import { MarkdownRenderer } from './html-render.js';
import { decodeEntities, findAll, parseHtml, textContent, type ElementNode } from './html-tree.js';

export { decodeEntities };

/**
 * HTML → markdown-flavoured plain text for indexing: parse (html-tree.ts), drop what
 * is not content (html-boilerplate.ts, the same rules the crawler uses), prefer `<main>` /
 * `<article>`, render (html-render.ts).
 */

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** <title>, else the first <h1> outside the chrome; SVG titles are tooltips, not the page's. */
function findTitle(root: ElementNode, skip: (el: ElementNode) => boolean): string | null {
  const svg = (el: ElementNode): boolean => el.name === 'svg';
  const [title] = findAll(root, (el) => el.name === 'title', svg);
  const fromTitle = title ? collapse(textContent(title)) : '';
  if (fromTitle) return fromTitle;
  const [h1] = findAll(
    root,
    (el) => el.name === 'h1',
    (el) => svg(el) || skip(el),
  );
  const fromH1 = h1 ? collapse(textContent(h1)) : '';
  return fromH1 || null;
}

/**
 * The page's main content as text. Chrome is dropped at the strictest level that leaves any text
 * (id/class names trusted, then element names only); within a level `<main>`/[role=main], then
 * `<article>`s, then the whole page. A page that is nothing but chrome: an uploaded file keeps it
 * (`keepChromeOnly`, its owner chose to index it), a crawled page is empty (its links are followed).
 */
export function mainContentText(root: ElementNode, keepChromeOnly: boolean): { title: string | null; text: string } {
  let title: string | null | undefined;
  const levels: ChromeLevel[] = keepChromeOnly ? ['class', 'element', 'none'] : ['class', 'element'];
  for (const level of levels) {
    const skip = boilerplateFilter(root, level);
    title ??= findTitle(root, skip);
    const candidates =
      level === 'none' ? [[root]] : [findAll(root, isMainContent, skip), findAll(root, (el) => el.name === 'article', skip), [root]];
    for (const roots of candidates) {
      if (roots.length === 0) continue;
      const text = new MarkdownRenderer(skip).render(roots);
      if (text.trim()) return { title, text };
    }
  }
  return { title: title ?? null, text: '' };
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
    return mainContentText(parseHtml(source), true);
  } catch {
    const stripped = source.replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, ' ').replace(/<[^>]*>/g, ' ');
    return { title: null, text: collapse(decodeEntities(stripped)) };
  }
}
