/**
 * Help-center pages for html-bench.ts: the 90 real help pages of shared/data/faq (markdown from
 * eight products' public docs) rendered into the three kinds of page a crawler meets: a
 * docs-generator site (header, sidebar, breadcrumbs, table of contents, heading anchors, cookie
 * banner, footer), a hosted help center (search form, article, related articles, votes), and a
 * legacy CMS page (table layout, upper-case tags, unclosed <p>/<li>, entities, no <main>).
 */
import fs from 'node:fs';
import path from 'node:path';

export interface BenchPage {
  name: string;
  html: string;
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

function inline(text: string): string {
  return esc(text)
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>')
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, '<a href="$2">$1</a>');
}

/** Enough CommonMark for these pages: headings, paragraphs, lists, fences, tables. `legacy` writes 1990s markup. */
export function markdownToHtml(md: string, legacy = false): string {
  const out: string[] = [];
  const lines = md.split('\n');
  let para: string[] = [];
  let list: 'ul' | 'ol' | null = null;
  const endPara = (): void => {
    if (para.length) out.push(legacy ? `<P>${inline(para.join(' '))}` : `<p>${inline(para.join(' '))}</p>`);
    para = [];
  };
  const endList = (): void => {
    if (list) out.push(`</${legacy ? list.toUpperCase() : list}>`);
    list = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    const item = /^\s*(?:([-*+])|\d+[.)])\s+(.*)$/.exec(line);
    if (line.startsWith('```')) {
      endPara();
      endList();
      const lang = line.slice(3).trim();
      const body: string[] = [];
      while (i + 1 < lines.length && !(lines[i + 1] as string).startsWith('```')) body.push(lines[++i] as string);
      i++;
      out.push(`<pre${lang ? ` class="language-${lang}"` : ''}><code>${esc(body.join('\n'))}</code></pre>`);
    } else if (heading) {
      endPara();
      endList();
      const level = (heading[1] as string).length;
      const text = heading[2] as string;
      out.push(
        legacy
          ? `<H${level}>${inline(text)}</H${level}>`
          : `<h${level} id="${slug(text)}">${inline(text)}<a class="hash-link" href="#${slug(text)}" aria-label="Direct link">#</a></h${level}>`,
      );
    } else if (item) {
      endPara();
      const kind = item[1] ? 'ul' : 'ol';
      if (list !== kind) {
        endList();
        list = kind;
        out.push(legacy ? `<${kind.toUpperCase()}>` : `<${kind}>`);
      }
      out.push(legacy ? `<LI>${inline(item[2] as string)}` : `<li>${inline(item[2] as string)}</li>`);
    } else if (line.startsWith('|')) {
      endPara();
      endList();
      const rows: string[] = [];
      for (; i < lines.length && (lines[i] as string).startsWith('|'); i++) {
        const cells = (lines[i] as string)
          .split('|')
          .slice(1, -1)
          .map((c) => c.trim());
        if (cells.every((c) => /^:?-+:?$/.test(c))) continue;
        const tag = rows.length === 0 ? 'th' : 'td';
        rows.push(
          `<tr>${cells.map((c) => (legacy ? `<${tag.toUpperCase()}>${inline(c)}` : `<${tag}>${inline(c)}</${tag}>`)).join('')}${legacy ? '' : '</tr>'}`,
        );
      }
      i--;
      out.push(`<table>${rows.join('\n')}</table>`);
    } else if (line.trim() === '') {
      endPara();
      endList();
    } else {
      endList();
      para.push(line.trim());
    }
  }
  endPara();
  endList();
  return out.join('\n');
}

function docsSite(site: string, title: string, body: string, others: string[]): string {
  const menu = others.map((t) => `<li class="menu__list-item"><a class="menu__link" href="/docs/${slug(t)}">${esc(t)}</a></li>`).join('');
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} | ${esc(site)} Docs</title>
<link rel="canonical" href="https://docs.${slug(site)}.example/${slug(title)}"><meta name="viewport" content="width=device-width">
<script>window.dataLayer=window.dataLayer||[];function gtag(){dataLayer.push(arguments)}if(1<2&&3>1){gtag('js',new Date())}</script>
<style>.navbar{display:flex}.menu__link:hover>span{color:red}</style></head>
<body class="docs-wrapper"><div id="cookie-consent" class="cookie-banner" role="dialog"><p>We use cookies to measure traffic.</p><button>Accept</button></div>
<a class="skip-link" href="#main">Skip to main content</a>
<nav class="navbar" aria-label="Main"><a class="navbar__brand" href="/">${esc(site)}</a><div class="navbar__items"><a href="/docs">Docs</a><a href="/blog">Blog</a><a href="https://github.example/${slug(site)}">GitHub</a></div></nav>
<div class="main-wrapper"><aside class="theme-doc-sidebar-container"><nav class="menu"><ul class="menu__list">${menu}</ul></nav></aside>
<main id="main" class="docMainContainer"><nav aria-label="Breadcrumbs"><ul class="breadcrumbs"><li><a href="/">Home</a></li><li>${esc(title)}</li></ul></nav>
<article><div class="theme-doc-markdown markdown"><header><h1>${esc(title)}</h1></header>
${body}
</div><footer class="theme-doc-footer"><a href="https://github.example/${slug(site)}/edit/main/docs/${slug(title)}.md">Edit this page</a></footer></article>
<nav class="pagination-nav"><a href="/docs/prev">Previous</a><a href="/docs/next">Next</a></nav></main>
<div class="toc-desktop"><ul class="table-of-contents">${(body.match(/<h2 id="([^"]+)">/g) ?? []).map((h) => `<li><a href="#${/id="([^"]+)"/.exec(h)?.[1]}">${/id="([^"]+)"/.exec(h)?.[1]}</a></li>`).join('')}</ul></div></div>
<footer class="footer"><div class="footer__links"><a href="/privacy">Privacy</a> · <a href="/terms">Terms</a></div><div class="footer__copyright">Copyright &copy; 2026 ${esc(site)}</div></footer>
<script src="/assets/js/runtime.js" defer></script></body></html>`;
}

function helpCenter(site: string, title: string, body: string, others: string[]): string {
  return `<!doctype html><html dir="ltr" lang="en-us"><head><meta charset="utf-8"><title>${esc(title)} &ndash; ${esc(site)} Help Center</title>
<meta name="robots" content="index, follow"><link rel="stylesheet" href="/hc/theming.css"></head>
<body><header class="header"><div class="logo"><a title="Home" href="/hc/en-us"><img src="/logo.png" alt="${esc(site)} Help Center home page"></a></div>
<div class="nav-wrapper"><button class="menu-button" aria-controls="user-nav">Menu</button><nav class="user-nav" id="user-nav"><a href="/hc/en-us/requests/new">Submit a request</a><a class="sign-in" href="/login">Sign in</a></nav></div></header>
<main role="main"><div class="container-divider"></div><div class="container"><div class="sub-nav"><ol class="breadcrumbs"><li title="${esc(site)}"><a href="/hc/en-us">${esc(site)}</a></li><li><a href="/hc/en-us/sections/1">FAQ</a></li></ol>
<form role="search" class="search" action="/hc/en-us/search"><input type="search" name="query" placeholder="Search"></form></div>
<div class="article-container" id="article-container"><aside class="article-sidebar" aria-labelledby="section-articles-title"><div class="collapsible-sidebar"><h3 id="section-articles-title">Articles in this section</h3><ul>${others.map((t) => `<li><a href="/hc/en-us/articles/${slug(t)}" class="sidenav-item">${esc(t)}</a></li>`).join('')}</ul></div></aside>
<article id="main-content" class="article"><header class="article-header"><h1 title="${esc(title)}" class="article-title">${esc(title)}</h1><div class="article-meta">Updated <time datetime="2026-03-02">March 02, 2026</time></div></header>
<section class="article-info"><div class="article-content"><div class="article-body">${body}</div>
<div class="article-votes"><span class="article-votes-question">Was this article helpful?</span><button class="button article-vote">Yes</button><button class="button article-vote">No</button></div></div>
<div class="article-more-questions">Have more questions? <a href="/hc/en-us/requests/new">Submit a request</a></div></section>
<section class="article-relatives"><div class="related-articles"><h2>Related articles</h2><ul>${others
    .slice(0, 3)
    .map((t) => `<li><a href="/hc/en-us/related/${slug(t)}">${esc(t)}</a></li>`)
    .join('')}</ul></div></section></article></div></div></main>
<footer class="footer"><div class="footer-inner"><a title="Home" href="/hc/en-us">${esc(site)}</a><div class="footer-language-selector">English (US)</div></div></footer>
<script>HelpCenter.user = {"role":"anonymous"}; if (a < b) { document.write("<p>x</p>") }</script></body></html>`;
}

function legacyCms(site: string, title: string, body: string, others: string[]): string {
  return `<HTML><HEAD><TITLE>${esc(site)} - ${esc(title)}</TITLE><META NAME="keywords" CONTENT="${esc(site)}, help"></HEAD>
<BODY BGCOLOR=#FFFFFF><TABLE WIDTH=100% CELLPADDING=0><TR><TD COLSPAN=2 id=top-banner><IMG SRC=/img/banner.gif ALT="${esc(site)}"><BR>Welcome to the ${esc(site)} support pages
<TR><TD VALIGN=top WIDTH=180 id=navigation class=leftnav><B>Topics</B><BR>${others.map((t) => `<A HREF="/help/${slug(t)}.html">${esc(t)}</A><BR>`).join('\n')}
<TD VALIGN=top id=content><FONT FACE="Verdana, Arial">
<H1>${esc(title)}</H1>
${body}
</FONT><P><SMALL>Last modified: 2 Mar 2026 &middot; <A HREF="mailto:help@${slug(site)}.example">help@${slug(site)}.example</A></SMALL>
<TR><TD COLSPAN=2 id=footer class=footer>&copy; 2026 ${esc(site)} &nbsp;|&nbsp; <A HREF="/privacy.html">Privacy</A></TABLE>
<SCRIPT LANGUAGE="JavaScript"><!--
document.write("<IMG SRC='/count.cgi?" + (new Date()).getTime() + "'>");
//--></SCRIPT></BODY></HTML>`;
}

/** Every page of every shared/data/faq product, in one of the three kinds of site (in turn). */
export function helpCenterPages(faqDir: string): BenchPage[] {
  const pages: BenchPage[] = [];
  const kinds = [docsSite, helpCenter, legacyCms];
  for (const file of fs
    .readdirSync(faqDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const product = JSON.parse(fs.readFileSync(path.join(faqDir, file), 'utf8')) as {
      product: string;
      documents: Array<{ title: string; content: string }>;
    };
    const titles = product.documents.map((d) => d.title);
    product.documents.forEach((doc, i) => {
      const kind = kinds[(pages.length + i) % kinds.length] as typeof docsSite;
      const body = markdownToHtml(doc.content, kind === legacyCms);
      pages.push({
        name: `${product.product}/${kind.name}/${slug(doc.title)}`,
        html: kind(
          product.product,
          doc.title,
          body,
          titles.filter((t) => t !== doc.title),
        ),
      });
    });
  }
  return pages;
}

/** HTML files of a directory tree (real pages of any site saved to disk), the first `limit` in path order. */
export function htmlFilesUnder(dir: string, limit: number): BenchPage[] {
  const found: string[] = [];
  const walk = (d: string): void => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.html?$/i.test(entry.name)) found.push(full);
    }
  };
  walk(dir);
  return found
    .sort()
    .slice(0, limit)
    .map((f) => ({ name: path.relative(dir, f), html: fs.readFileSync(f, 'utf8') }));
}

/**
 * Markup real pages get wrong, where parsers part ways (the HTML standard's error recovery):
 * misnested formatting, content foster-parented out of tables, implied ends, stray end tags,
 * self-closing syntax on HTML elements, nested links, headings inside headings, EOF in a tag.
 */
const BROKEN_FRAGMENTS = [
  '<p>One<p>Two<ul><li>A<li>B</ul>',
  '<div><p>Open <b>bold <i>both</div></span></p>after',
  '<p>if a < b then c</p><p>tail <a href="x',
  '<p>A<!-- hidden --> B</p><?xml version="1.0"?><![CDATA[x]]><p>C<!-- never closed <p>D',
  '<table><td>cell<tr>row</table></td></tr><p>after table',
  '<table><p>fostered paragraph</p><tr><td>cell</td></tr></table>',
  '<p><b>bold<p>next paragraph still bold?</b> plain',
  '<a href="https://a.example/1">first <a href="https://a.example/2">second</a> tail</a>',
  '<h1>Title<h2>Sub inside</h2></h1><p>body</p>',
  '<div/>Text after self-closing div<span/>inline</div>',
  '<ul><li>One<ul><li>Nested<li>Nested 2</ul><li>Two</ul>',
  '<dl><dt>Term<dd>Definition<dt>Term 2<dd>Def 2</dl>',
  '<p>Line<br/>break</br>stray end br</p>',
  '<select><option>One<option>Two</select><p>After select</p>',
  '<pre>\nfirst line kept\n  indented</pre><p>x</p>',
  '<table><tr><td>a<td>b<tr><td>c</table>',
  '<p>para <div>block inside paragraph</div> rest</p>',
  '<h3 id="faq-1">Question?</h3><p>Answer <em>here</p></em><h3 id=faq-2>Next?</h3>Answer two',
  '<li>orphan item</li></ul></ol><p>ok</p>',
  '<noscript><p>Enable JS</p></noscript><main><p>Main text</p></main>',
  '<form><h2>Search form heading</h2><input name=q></form><p>Body</p>',
  '<p>Price: 5&euro; &amp; more &copy 2024 AT&T &#x1F600;</p>',
  '<textarea><p>not markup</p></textarea><p>After textarea</p>',
  '<svg><p>html in svg?</p></svg><p>after svg</p>',
  '<b><p>bold para one</p><p>bold para two</p></b>',
];

export function brokenMarkupPages(): BenchPage[] {
  return BROKEN_FRAGMENTS.map((fragment, i) => ({
    name: `broken/${i}`,
    html: `<!DOCTYPE html><html><head><title>Case ${i}</title></head><body>${fragment}</body></html>`,
  }));
}
