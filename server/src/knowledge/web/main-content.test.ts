import { describe, expect, it } from 'vitest';
import { extractHtmlPage } from './main-content.js';

/** A marketing/docs page as sites ship them: consent manager, mega-menu, breadcrumbs, share bar, sidebar, newsletter, footer. */
const DOCS_PAGE = `<!DOCTYPE html>
<html lang="en"><head>
<meta charset="utf-8"><title>Configure single sign-on | Acme Docs</title>
<link rel="canonical" href="https://docs.acme.example/sso">
<link rel="stylesheet" href="/app.css"><script>window.dataLayer = [];</script>
</head>
<body class="docs has-sidebar">
<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk" class="otFlat"><p>We use cookies to personalise content. consentword</p><button>Accept all</button></div></div>
<a class="skip-link" href="#content">Skip to content</a>
<header class="site-header"><a href="/" class="logo">Acme</a>
  <div class="mega-menu"><ul><li><a href="/product">Product menuword</a></li><li><a href="/pricing">Pricing</a></li></ul></div>
  <form role="search" action="/search"><input name="q"></form></header>
<div class="page-with-sidebar">
  <div id="sidebar" class="docs-sidebar"><ul><li><a href="/start">Getting started sidebarword</a></li><li><a href="/sso">SSO</a></li></ul></div>
  <div class="content-wrapper">
    <ol class="breadcrumb"><li><a href="/">Docs</a></li><li>Admin breadcrumbword</li></ol>
    <main id="content">
      <article>
        <header><h1>Configure single sign-on</h1><p class="byline">Updated March 2026</p></header>
        <div class="share-buttons"><a href="https://twitter.example/share">Tweet shareword</a></div>
        <p>Single sign-on lets your team log in with your identity provider.</p>
        <h2>SAML setup</h2>
        <ol><li>Open <strong>Settings → Security</strong>.</li><li>Paste the metadata URL.</li></ol>
        <pre><code class="language-bash">curl -X POST https://api.acme.example/sso</code></pre>
        <div class="ad-slot advertisement"><p>Try Acme Pro today! advertword</p></div>
        <h2>Troubleshooting</h2>
        <p>If login loops, clear the session cookie and retry.</p>
        <a href="/sso/scim" rel="nofollow">SCIM (beta)</a>
      </article>
    </main>
  </div>
</div>
<div class="newsletter-signup"><h3>Stay in the loop</h3><p>Monthly newsletterword.</p></div>
<footer class="site-footer"><nav><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></nav><p>© 2026 Acme footerword</p></footer>
</body></html>`;

/** A classic CMS layout without <main>: content and chrome are divs told apart by id/class. */
const CMS_PAGE = `<html><head><title>Opening hours</title><base href="https://www.shop.example/de/"></head>
<body><div id="page">
<div id="top-banner">Free shipping over 50 € bannerword</div>
<div id="navigation"><a href="hours.html">Hours</a> | <a href="contact.html">Contact navword</a></div>
<div id="content">
  <h1>Opening hours</h1>
  <p>Our shop in Köln is open Monday to Saturday, 9:00 to 18:00.</p>
  <table><tr><th>Day</th><th>Hours</th></tr><tr><td>Sunday</td><td>closed</td></tr></table>
</div>
<div class="social-links"><a href="https://social.example/shop">Follow us socialword</a></div>
<div id="footer">Impressum · footerword</div>
</div></body></html>`;

describe('main content of a page', () => {
  it('keeps the article with its headings, lists and code; drops consent banners, menus, breadcrumbs, share bars, ads, sidebars, newsletters and footers', () => {
    const page = extractHtmlPage(DOCS_PAGE);
    expect(page.title).toBe('Configure single sign-on | Acme Docs');
    expect(page.text).toContain('# Configure single sign-on');
    expect(page.text).toContain('## SAML setup');
    expect(page.text).toContain('## Troubleshooting');
    expect(page.text).toContain('Single sign-on lets your team log in with your identity provider.');
    expect(page.text).toMatch(/- Open `?Settings → Security`?\./);
    expect(page.text).toContain('```bash\ncurl -X POST https://api.acme.example/sso\n```');
    expect(page.text).toContain('Updated March 2026');
    for (const word of [
      'consentword',
      'menuword',
      'sidebarword',
      'breadcrumbword',
      'shareword',
      'advertword',
      'newsletterword',
      'footerword',
      'Skip to content',
      'window.dataLayer',
    ]) {
      expect(page.text, word).not.toContain(word);
    }
    expect(page.canonical).toBe('https://docs.acme.example/sso');
    expect(page.noindex).toBe(false);
    expect(page.nofollow).toBe(false);
  });

  it('returns every link, menus and footers included (that is how a crawler finds pages), with rel=nofollow marked', () => {
    const page = extractHtmlPage(DOCS_PAGE);
    const hrefs = page.links.map((l) => l.href);
    expect(hrefs).toEqual(
      expect.arrayContaining([
        '/',
        '/product',
        '/pricing',
        '/start',
        '/sso',
        'https://twitter.example/share',
        '/sso/scim',
        '/privacy',
        '/terms',
        '#content',
      ]),
    );
    expect(page.links.find((l) => l.href === '/sso/scim')?.nofollow).toBe(true);
    expect(page.links.find((l) => l.href === '/pricing')?.nofollow).toBe(false);
  });

  it('without <main>: content by elimination, chrome recognised by id and class; <base href> reported', () => {
    const page = extractHtmlPage(CMS_PAGE);
    expect(page.title).toBe('Opening hours');
    expect(page.text).toContain('# Opening hours');
    expect(page.text).toContain('Our shop in Köln is open Monday to Saturday, 9:00 to 18:00.');
    expect(page.text).toContain('Sunday | closed');
    for (const word of ['bannerword', 'navword', 'socialword', 'footerword']) expect(page.text, word).not.toContain(word);
    expect(page.baseHref).toBe('https://www.shop.example/de/');
    expect(page.links.map((l) => l.href)).toEqual(['hours.html', 'contact.html', 'https://social.example/shop']);
  });

  it('never drops what holds the content: a wrapper whose class looks like chrome but contains <main> or the <h1>', () => {
    const html = `<body><div class="nav-layout"><nav><a href="/x">X navword</a></nav><main><h1>Kept</h1><p>Body text stays.</p></main></div>
      <div class="menu-page"><h1>Lunch menu</h1><p>Soup of the day.</p></div></body>`;
    const page = extractHtmlPage(html);
    expect(page.text).toContain('Body text stays.');
    expect(page.text).not.toContain('navword');
    // All of a page's text in chrome-looking markup: the converter's own rules apply instead of an empty page.
    const menu = extractHtmlPage(
      '<html><head><title>Menu</title></head><body><div class="menu"><p>Tomato soup, 6 €.</p></div></body></html>',
    );
    expect(menu.text).toContain('Tomato soup, 6 €.');
  });

  it('reads robots meta: noindex, nofollow, none, and our own bot name; others are ignored', () => {
    const meta = (name: string, content: string) =>
      extractHtmlPage(`<html><head><meta name="${name}" content="${content}"></head><body><p>x</p></body></html>`);
    expect(meta('robots', 'noindex')).toMatchObject({ noindex: true, nofollow: false });
    expect(meta('robots', 'NOINDEX,NOFOLLOW')).toMatchObject({ noindex: true, nofollow: true });
    expect(meta('robots', 'none')).toMatchObject({ noindex: true, nofollow: true });
    expect(meta('ParleyBot', 'nofollow')).toMatchObject({ noindex: false, nofollow: true });
    expect(meta('googlebot', 'noindex')).toMatchObject({ noindex: false, nofollow: false });
    expect(meta('robots', 'index, follow')).toMatchObject({ noindex: false, nofollow: false });
  });

  it('escapes text faithfully through the cleaned copy (entities, angle brackets, ampersands)', () => {
    const page = extractHtmlPage(
      '<main><h1>A &amp; B</h1><p>Use &lt;div&gt; tags &amp;amp; not &quot;tables&quot; — 5 &lt; 6.</p><pre>if (a &lt; b &amp;&amp; c) {}</pre></main>',
    );
    expect(page.text).toContain('# A & B');
    expect(page.text).toContain('Use <div> tags &amp; not "tables" — 5 < 6.');
    expect(page.text).toContain('if (a < b && c) {}');
  });
});
