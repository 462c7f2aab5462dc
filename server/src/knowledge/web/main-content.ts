import { buildTree, htmlToMarkdownText, type ElementNode, type HtmlNode } from '../html-to-text.js';

/**
 * What a crawler needs from one HTML page: its main content as markdown-ish text (page chrome
 * dropped), its links, canonical URL and robots directives.
 *
 * The page is parsed once with the tolerant parser of `html-to-text.ts`; the links and
 * directives come from the whole page (navigation menus are how a crawler finds pages), the
 * text from a copy without the chrome, which `htmlToMarkdownText` then renders (preferring
 * `<main>`/`<article>`/[role=main], dropping nav/footer/aside/forms and cookie banners itself).
 */

export interface PageLink { href: string; nofollow: boolean }

export interface HtmlPage {
  title: string | null;
  /** Main content, markdown-flavoured (`#` headings, `- ` items…). */
  text: string;
  /** `<a href>` as written (resolve against `baseHref` ?? the page URL). */
  links: PageLink[];
  canonical: string | null;
  baseHref: string | null;
  /** `<meta name=robots|parleybot content=noindex>` (or `none`). */
  noindex: boolean;
  /** `<meta name=robots|parleybot content=nofollow>` (or `none`). */
  nofollow: boolean;
}

/** Chrome by element name (a page-level `<header>` only when it holds no `<h1>`). */
const CHROME_ELEMENTS = new Set(['nav', 'footer', 'aside']);
const CHROME_ROLES = new Set(['navigation', 'banner', 'contentinfo', 'complementary', 'search']);
/** Chrome by id/class: one token (split at spaces) ending or starting with one of these words. */
const CHROME_TOKEN_RE = /(?:^|[-_])(?:nav|navbar|navigation|menu|menus|mainmenu|megamenu|breadcrumb|breadcrumbs|footer|sidebar|share|sharing|social|newsletter|advert|adverts|advertisement|ads|banner|cookie|cookies|consent|gdpr|skip-link|skiplink|toc-mobile|related-posts)(?:$|[-_])/;
/** These are never anything but chrome, whatever surrounds them in the token. */
const CHROME_ANYWHERE_RE = /cookie|consent|gdpr|newsletter|advert/;
/** Never removed: the page itself and its content containers. */
const NEVER_CHROME = new Set(['#document', 'html', 'head', 'body', 'main', 'article', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
/** Never worth serializing: not content (html-to-text drops these too). */
const SKIP_SERIALIZE = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'iframe', 'object', 'embed', 'canvas', 'video', 'audio', 'link', 'meta', 'base']);
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'param', 'source', 'track', 'wbr', 'keygen']);

function looksLikeChrome(el: ElementNode, byClass: boolean): boolean {
  if (NEVER_CHROME.has(el.name)) return false;
  if (CHROME_ELEMENTS.has(el.name)) return true;
  if (CHROME_ROLES.has((el.attrs.get('role') ?? '').trim().toLowerCase())) return true;
  if (!byClass) return false;
  const tokens = `${el.attrs.get('id') ?? ''} ${el.attrs.get('class') ?? ''}`.toLowerCase().split(/\s+/).filter(Boolean);
  return tokens.some((t) => CHROME_TOKEN_RE.test(t) || CHROME_ANYWHERE_RE.test(t));
}

/** Holds the page's content: such an element (and everything around it) is never dropped as chrome. */
function isContentAnchor(el: ElementNode): boolean {
  return el.name === 'main' || el.name === 'article' || el.name === 'h1' || (el.attrs.get('role') ?? '').toLowerCase() === 'main';
}

interface Frame { node: HtmlNode; exit: boolean; depth: number }

/** Elements that contain a content anchor (`<main>`, `<article>`, [role=main], `<h1>`). */
function anchorAncestors(root: ElementNode): Set<ElementNode> {
  const holders = new Set<ElementNode>();
  const path: ElementNode[] = [];
  const frames: Frame[] = [{ node: root, exit: false, depth: 0 }];
  while (frames.length) {
    const f = frames.pop() as Frame;
    if (f.node.type !== 'element') continue;
    if (f.exit) { path.pop(); continue; }
    if (isContentAnchor(f.node)) for (const p of path) holders.add(p);
    path.push(f.node);
    frames.push({ node: f.node, exit: true, depth: f.depth });
    for (let i = f.node.children.length - 1; i >= 0; i--) frames.push({ node: f.node.children[i] as HtmlNode, exit: false, depth: f.depth + 1 });
  }
  return holders;
}

const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

function robotsDirectives(content: string): { noindex: boolean; nofollow: boolean } {
  const words = content.toLowerCase().split(/[\s,]+/);
  const none = words.includes('none');
  return { noindex: none || words.includes('noindex'), nofollow: none || words.includes('nofollow') };
}

/**
 * Parses a page: metadata and links from all of it, text from its main content.
 * `botToken` is our robots meta name besides `robots` (`<meta name="parleybot">`).
 */
export function extractHtmlPage(html: string, botToken = 'parleybot'): HtmlPage {
  const root = buildTree(html);
  const meta = readMetadata(root, botToken);
  const holders = anchorAncestors(root);
  let converted = htmlToMarkdownText(cleanedHtml(root, holders, true));
  // Everything looked like chrome by its class (a restaurant's "menu" page…): keep classes out of it.
  if (!converted.text.trim()) converted = htmlToMarkdownText(cleanedHtml(root, holders, false));
  return { title: converted.title, text: converted.text, ...meta };
}

/** Links (wherever they are: menus are how a crawler finds pages), canonical, base, robots meta. */
function readMetadata(root: ElementNode, botToken: string): Omit<HtmlPage, 'title' | 'text'> {
  const found: Omit<HtmlPage, 'title' | 'text'> = { links: [], canonical: null, baseHref: null, noindex: false, nofollow: false };
  const pending: HtmlNode[] = [root];
  while (pending.length) {
    const node = pending.pop() as HtmlNode;
    if (node.type !== 'element') continue;
    const name = node.name;
    if ((name === 'a' || name === 'area') && node.attrs.get('href')) {
      found.links.push({ href: node.attrs.get('href') as string, nofollow: /(?:^|\s)nofollow(?:\s|$)/i.test(node.attrs.get('rel') ?? '') });
    } else if (name === 'link' && found.canonical === null && /(?:^|\s)canonical(?:\s|$)/i.test(node.attrs.get('rel') ?? '')) {
      found.canonical = node.attrs.get('href')?.trim() || null;
    } else if (name === 'base' && found.baseHref === null) {
      found.baseHref = node.attrs.get('href')?.trim() || null;
    } else if (name === 'meta') {
      const metaName = (node.attrs.get('name') ?? '').trim().toLowerCase();
      if (metaName === 'robots' || metaName === botToken) {
        const d = robotsDirectives(node.attrs.get('content') ?? '');
        found.noindex ||= d.noindex;
        found.nofollow ||= d.nofollow;
      }
    }
    if (name === 'svg' || name === 'math') continue;
    for (let i = node.children.length - 1; i >= 0; i--) pending.push(node.children[i] as HtmlNode);
  }
  return found;
}

/**
 * The page as HTML again, without its chrome: nav/footer/aside, chrome roles, a page-level
 * `<header>` (outside main/article, without the `<h1>`), and with `byClass` elements whose
 * id/class says cookie banner, menu, sidebar… Elements holding the content are always kept.
 */
function cleanedHtml(root: ElementNode, holders: Set<ElementNode>, byClass: boolean): string {
  let out = '';
  let insideContent = 0; // depth inside main/article/[role=main]
  const frames: Frame[] = [{ node: root, exit: false, depth: 0 }];
  while (frames.length) {
    const f = frames.pop() as Frame;
    const node = f.node;
    if (node.type === 'text') { out += escapeText(node.text); continue; }
    const name = node.name;
    const content = isContentAnchor(node) && name !== 'h1';
    if (f.exit) {
      if (content) insideContent--;
      if (name !== '#document') out += `</${name}>`;
      continue;
    }
    if (SKIP_SERIALIZE.has(name)) continue;
    if (!holders.has(node) && (looksLikeChrome(node, byClass) || (name === 'header' && insideContent === 0))) continue;
    if (name !== '#document') {
      out += `<${name}`;
      for (const [k, v] of node.attrs) if (/^[a-z][\w:.-]*$/.test(k) && !k.startsWith('on')) out += ` ${k}="${escapeAttr(v)}"`;
      out += '>';
    }
    if (VOID.has(name)) continue;
    if (content) insideContent++;
    frames.push({ node, exit: true, depth: f.depth });
    for (let i = node.children.length - 1; i >= 0; i--) frames.push({ node: node.children[i] as HtmlNode, exit: false, depth: f.depth + 1 });
  }
  return out;
}
