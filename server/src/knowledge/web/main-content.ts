import { mainContentText } from '../html-to-text.js';
import { parseHtml, type ElementNode, type HtmlNode } from '../html-tree.js';

/**
 * What a crawler needs from one HTML page: its main content as markdown-ish text (page chrome
 * dropped), its links, canonical URL and robots directives.
 *
 * The page is parsed once (html-tree.ts); the links and directives come from the whole page
 * (navigation menus are how a crawler finds pages), the text from its main content, with the
 * same boilerplate rules file ingestion uses (html-boilerplate.ts).
 */

export interface PageLink {
  href: string;
  nofollow: boolean;
}

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
  const root = parseHtml(html);
  const { title, text } = mainContentText(root, false);
  return { title, text, ...readMetadata(root, botToken) };
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
