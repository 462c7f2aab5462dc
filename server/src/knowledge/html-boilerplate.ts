import { findAll, type ElementNode, type HtmlNode } from './html-tree.js';

/**
 * The one set of rules for what on an HTML page is not its content, used by file ingestion
 * (`htmlToMarkdownText`) and the crawler (`extractHtmlPage`) alike.
 *
 * - Never content, whatever the page: code, media, metadata, controls, and hidden elements.
 * - Page chrome: nav/footer/aside, chrome ARIA roles, forms (unless one wraps the whole page),
 *   a page-level `<header>` (outside main/article), cookie/consent banners and, at the `class`
 *   level, elements whose id/class says menu, sidebar, breadcrumb, share bar, newsletter, ad….
 * - Never chrome: whatever holds the content (an ancestor of `<main>`, `<article>`,
 *   [role=main] or the `<h1>`), the page itself and its headings.
 */

/** Never content, whatever the page. */
const NOT_CONTENT = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'head',
  'title',
  'iframe',
  'object',
  'embed',
  'canvas',
  'video',
  'audio',
  'map',
  'button',
  'select',
  'textarea',
  'input',
  'dialog',
  'noembed',
  'noframes',
  'link',
  'meta',
  'base',
]);
const CHROME_ELEMENTS = new Set(['nav', 'footer', 'aside', 'form']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search', 'dialog', 'alertdialog']);
/** Chrome by id/class: one token (split at spaces) ending or starting with one of these words. */
const CHROME_TOKEN_RE =
  /(?:^|[-_])(?:nav|navbar|navigation|menu|menus|mainmenu|megamenu|breadcrumb|breadcrumbs|footer|sidebar|share|sharing|social|newsletter|advert|adverts|advertisement|ads|banner|cookie|cookies|consent|gdpr|skip-link|skiplink|toc-mobile|related-posts)(?:$|[-_])/;
/** Never anything but chrome, wherever they appear in a token. */
const CHROME_ANYWHERE_RE = /cookie|consent|gdpr|newsletter|advert/;
/** Consent banners, recognised even when class names are otherwise not trusted. */
const CONSENT_RE = /cookie|consent|gdpr/i;
const NEVER_CHROME = new Set(['#document', 'html', 'head', 'body', 'main', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);

/**
 * How much is dropped as chrome: `class` trusts id/class names, `element` only element names and
 * roles (for pages whose whole text sits in chrome-looking markup, a restaurant's "menu"),
 * `none` keeps everything that is content at all (a page that is nothing but navigation).
 */
export type ChromeLevel = 'class' | 'element' | 'none';

export function isNotContent(el: ElementNode): boolean {
  if (NOT_CONTENT.has(el.name) || el.attrs.has('hidden') || el.attrs.get('aria-hidden') === 'true') return true;
  const style = el.attrs.get('style');
  if (!style) return false;
  const compact = style.toLowerCase().replace(/\s+/g, '');
  return compact.includes('display:none') || compact.includes('visibility:hidden');
}

export function isMainContent(el: ElementNode): boolean {
  return el.name === 'main' || (el.attrs.get('role') ?? '').trim().toLowerCase() === 'main';
}

/** Holds the page's content: such an element (and everything around it) is never chrome. */
function isContentAnchor(el: ElementNode): boolean {
  return isMainContent(el) || el.name === 'article' || el.name === 'h1';
}

/** ASP.NET-style pages wrap the whole body in one <form>; that one is content, not chrome. */
function isPageWrappingForm(el: ElementNode): boolean {
  const wraps = (n: ElementNode): boolean => n.name === 'main' || n.name === 'article' || n.name === 'h1' || n.name === 'h2';
  return findAll(el, wraps, () => false).length > 0;
}

function looksLikeChrome(el: ElementNode, byClass: boolean): boolean {
  if (NEVER_CHROME.has(el.name)) return false;
  if (CHROME_ELEMENTS.has(el.name)) return !(el.name === 'form' && isPageWrappingForm(el));
  if (CHROME_ROLES.has((el.attrs.get('role') ?? '').trim().toLowerCase())) return true;
  const names = `${el.attrs.get('id') ?? ''} ${el.attrs.get('class') ?? ''}`;
  if (!byClass) return CONSENT_RE.test(names);
  const tokens = names.toLowerCase().split(/\s+/).filter(Boolean);
  return tokens.some((t) => CHROME_TOKEN_RE.test(t) || CHROME_ANYWHERE_RE.test(t));
}

interface Frame {
  node: ElementNode;
  exit: boolean;
}

/** Elements that contain a content anchor (`<main>`, `<article>`, [role=main], `<h1>`). */
function anchorAncestors(root: ElementNode): Set<ElementNode> {
  const holders = new Set<ElementNode>();
  const path: ElementNode[] = [];
  const frames: Frame[] = [{ node: root, exit: false }];
  while (frames.length) {
    const f = frames.pop() as Frame;
    if (f.exit) {
      path.pop();
      continue;
    }
    // Ancestors are added bottom-up and stop at the first one already known (its own are too).
    if (isContentAnchor(f.node))
      for (let i = path.length - 1; i >= 0 && !holders.has(path[i] as ElementNode); i--) holders.add(path[i] as ElementNode);
    path.push(f.node);
    frames.push({ node: f.node, exit: true });
    for (let i = f.node.children.length - 1; i >= 0; i--) {
      const child = f.node.children[i] as HtmlNode;
      if (child.type === 'element') frames.push({ node: child, exit: false });
    }
  }
  return holders;
}

/** The outermost chrome elements of the page at this level (empty at `none`). */
function chromeElements(root: ElementNode, level: ChromeLevel): Set<ElementNode> {
  const chrome = new Set<ElementNode>();
  if (level === 'none') return chrome;
  const holders = anchorAncestors(root);
  let insideContent = 0; // depth inside main/article/[role=main]
  const frames: Frame[] = [{ node: root, exit: false }];
  while (frames.length) {
    const { node, exit } = frames.pop() as Frame;
    const content = isContentAnchor(node) && node.name !== 'h1';
    if (exit) {
      if (content) insideContent--;
      continue;
    }
    if (isNotContent(node)) continue;
    if (!holders.has(node) && (looksLikeChrome(node, level === 'class') || (node.name === 'header' && insideContent === 0))) {
      chrome.add(node);
      continue;
    }
    if (content) insideContent++;
    frames.push({ node, exit: true });
    for (let i = node.children.length - 1; i >= 0; i--) {
      const child = node.children[i] as HtmlNode;
      if (child.type === 'element') frames.push({ node: child, exit: false });
    }
  }
  return chrome;
}

/** What to leave out of the page's text at this level: true for an element to skip with its subtree. */
export function boilerplateFilter(root: ElementNode, level: ChromeLevel): (el: ElementNode) => boolean {
  const chrome = chromeElements(root, level);
  return (el) => chrome.has(el) || isNotContent(el);
}
