import { describe, expect, it } from 'vitest';
import { decodeEntities, htmlToMarkdownText } from './html-to-text.js';

const PAGE = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Parley Docs &ndash; Installing</title>
  <style>body { color: red; } .x > p { margin: 0 }</style>
  <script>window.dataLayer = []; if (a < b && c > d) { document.write("<p>tracking</p>"); }</script>
</head>
<body class="docs consent-given">
  <div id="cookie-banner" class="banner">We use cookies to improve your experience. <button>Accept all</button></div>
  <header><a href="/" class="logo">Parley</a>
    <nav><ul><li><a href="/docs">Docs</a></li><li><a href="/pricing">Pricing</a></li></ul></nav>
  </header>
  <aside class="sidebar"><h3>On this page</h3><ul><li>Install</li></ul></aside>
  <main>
    <h1>Installing   Parley</h1>
    <p>Parley runs on <strong>Node&nbsp;20</strong> or newer &amp; needs about 200&#160;MB of disk.</p>
    <h2>Download</h2>
    <p>Get the latest release from <a href="https://github.com/example/parley/releases">GitHub releases</a>
       or read the <a href="/docs/upgrade">upgrade guide</a>.</p>
    <pre class="language-bash"><code>npm install -g parley
parley init --dir ./my-kb</code></pre>
    <h2>Supported platforms</h2>
    <table>
      <thead><tr><th>OS</th><th>Status</th></tr></thead>
      <tbody><tr><td>Linux</td><td>Supported</td></tr><tr><td>Windows</td><td>Beta</td></tr></tbody>
    </table>
    <form action="/subscribe"><label>Email</label><input type="email"><button>Subscribe</button></form>
  </main>
  <footer><p>&copy; 2024 Parley Inc. All rights reserved.</p></footer>
  <script src="/app.js"></script>
</body>
</html>`;

describe('htmlToMarkdownText: a realistic documentation page', () => {
  const { title, text } = htmlToMarkdownText(PAGE);

  it('reads the <title> with entities decoded', () => {
    expect(title).toBe('Parley Docs \u2013 Installing');
  });

  it('renders main content as markdown and drops all chrome', () => {
    expect(text).toBe(
      [
        '# Installing Parley',
        'Parley runs on Node 20 or newer & needs about 200 MB of disk.',
        '## Download',
        'Get the latest release from [GitHub releases](https://github.com/example/parley/releases) or read the upgrade guide.',
        '```bash\nnpm install -g parley\nparley init --dir ./my-kb\n```',
        '## Supported platforms',
        'OS | Status\nLinux | Supported\nWindows | Beta',
      ].join('\n\n'),
    );
  });

  it('contains nothing from scripts, styles, nav, aside, footer, forms or the cookie banner', () => {
    for (const noise of [
      'tracking',
      'dataLayer',
      'color: red',
      'cookies',
      'Accept all',
      'Pricing',
      'On this page',
      'Subscribe',
      'rights reserved',
    ]) {
      expect(text, noise).not.toContain(noise);
    }
  });
});

describe('htmlToMarkdownText: content selection', () => {
  it('prefers <article> when there is no <main>', () => {
    const html =
      '<body><div class="menu">Home | Blog</div><article><h2>Release 2.0</h2><p>Streaming answers.</p></article><div>Related posts</div></body>';
    expect(htmlToMarkdownText(html).text).toBe('## Release 2.0\n\nStreaming answers.');
  });

  it('uses role="main" like <main>', () => {
    const html = '<div>Top banner text</div><div role="main"><p>The real content.</p></div>';
    expect(htmlToMarkdownText(html).text).toBe('The real content.');
  });

  it('falls back to the body when <main> is empty (a client-rendered shell)', () => {
    const html = '<body><main id="app"></main><div><p>Server-rendered fallback.</p></div></body>';
    expect(htmlToMarkdownText(html).text).toBe('Server-rendered fallback.');
  });

  it('keeps a form that wraps the whole page (ASP.NET style)', () => {
    const html = '<body><form id="aspnetForm"><h1>Refund policy</h1><p>Refunds within 30 days.</p></form><p>Contact us anytime.</p></body>';
    expect(htmlToMarkdownText(html).text).toBe('# Refund policy\n\nRefunds within 30 days.\n\nContact us anytime.');
  });

  it('drops the chrome the crawler drops (one set of rules): a page-level header, menus, sidebars and breadcrumbs by class', () => {
    const html =
      '<body><header><a href="/">Logo</a> Site name</header><div class="sidebar">Side links</div><ol class="breadcrumb"><li>Docs</li></ol><div id="content"><h1>Title</h1><p>Body.</p></div></body>';
    expect(htmlToMarkdownText(html).text).toBe('# Title\n\nBody.');
  });

  it('keeps boilerplate when it is all there is rather than returning nothing', () => {
    expect(htmlToMarkdownText('<nav><a href="/a">Only navigation</a></nav>').text).toBe('Only navigation');
  });

  it('drops hidden elements, ARIA-hidden icons, role=navigation and consent dialogs', () => {
    const html = `<main>
      <p>Visible <span aria-hidden="true">★</span>text.</p>
      <p hidden>Hidden paragraph.</p>
      <div style="display: none">Invisible div.</div>
      <div role="navigation">Prev | Next</div>
      <section class="gdpr-notice">We value your privacy.</section>
      <div id="CybotCookiebotDialog">Cookie settings</div>
      <p>End.</p>
    </main>`;
    expect(htmlToMarkdownText(html).text).toBe('Visible text.\n\nEnd.');
  });
});

describe('htmlToMarkdownText: formatting', () => {
  it('turns h1..h6 into # headings', () => {
    const html = '<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>';
    expect(htmlToMarkdownText(html).text).toBe('# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six');
  });

  it('renders lists as "- " items, nested lists indented, with multi-paragraph items', () => {
    const html =
      '<ul><li>First</li><li><p>Second</p><p>More about second</p></li><li>Third<ol><li>Sub a</li><li>Sub b</li></ol></li></ul><p>After.</p>';
    expect(htmlToMarkdownText(html).text).toBe('- First\n- Second\n  More about second\n- Third\n  - Sub a\n  - Sub b\n\nAfter.');
  });

  it('treats p, div, section and br as paragraph breaks and collapses whitespace', () => {
    const html = '<div>  Alpha\n\n   beta  </div><section>Gamma<br>Delta</section><p>Eps<b>ilon</b>  <i>zeta</i></p>';
    expect(htmlToMarkdownText(html).text).toBe('Alpha beta\n\nGamma\n\nDelta\n\nEpsilon zeta');
  });

  it('keeps inline code in backticks and pre blocks verbatim', () => {
    const html = '<p>Set <code>PARLEY_PORT</code> first.</p><pre>  indented\n    more  &lt;tag&gt;\n</pre>';
    expect(htmlToMarkdownText(html).text).toBe('Set `PARLEY_PORT` first.\n\n```\n  indented\n    more  <tag>\n```');
  });

  it('links only absolute http(s) URLs, and never wraps a URL in itself', () => {
    const html =
      '<p><a href="https://a.example/x">Docs</a>, <a href="/relative">relative</a>, <a href="mailto:x@y.z">mail</a>, <a href="javascript:void(0)">js</a>, <a href="https://b.example/">https://b.example/</a>.</p>';
    expect(htmlToMarkdownText(html).text).toBe('[Docs](https://a.example/x), relative, mail, js, https://b.example/.');
  });

  it('does not put markdown links inside headings', () => {
    expect(htmlToMarkdownText('<h2><a href="https://x.example/a">Anchor title</a></h2>').text).toBe('## Anchor title');
  });

  it('renders table rows with " | " and keeps block content inside cells on one row', () => {
    const html = '<table><tr><th>Plan</th><th>Price</th></tr><tr><td><p>Pro</p></td><td>$20<br>per month</td></tr></table>';
    expect(htmlToMarkdownText(html).text).toBe('Plan | Price\nPro | $20 per month');
  });

  it('removes invisible soft hyphens / zero-width spaces and escapes text that looks like markdown syntax', () => {
    const html = '<p>config&shy;uration zero\u200bwidth</p><p># of users</p><p>```not a fence</p>';
    expect(htmlToMarkdownText(html).text).toBe('configuration zerowidth\n\n\\# of users\n\n\\```not a fence');
  });

  it('ignores images and svg (including an svg <title>)', () => {
    const html = '<body><svg><title>icon</title><path d="M0 0"/></svg><p>Text <img src="a.png" alt="pic"> here.</p></body>';
    const out = htmlToMarkdownText(html);
    expect(out.text).toBe('Text here.');
    expect(out.title).toBeNull();
  });
});

describe('htmlToMarkdownText: title', () => {
  it('falls back to the first <h1> when there is no <title>', () => {
    expect(htmlToMarkdownText('<h1>Welcome &amp; hello</h1><p>x</p>').title).toBe('Welcome & hello');
  });

  it('is null when there is neither', () => {
    expect(htmlToMarkdownText('<p>Just text</p>').title).toBeNull();
    expect(htmlToMarkdownText('<title>   </title><p>x</p>').title).toBeNull();
  });
});

describe('decodeEntities', () => {
  it('decodes named, decimal and hex references', () => {
    expect(decodeEntities('&lt;a&gt; &amp; &quot;q&quot; &apos;s&apos; &hellip; &eacute;t&eacute; &euro;5')).toBe(
      '<a> & "q" \'s\' \u2026 \u00e9t\u00e9 \u20ac5',
    );
    expect(decodeEntities('&#123; &#x7D; &#x1F600; &#X41;')).toBe('{ } \u{1F600} A');
  });

  it('maps Windows-1252 code points and replaces invalid ones', () => {
    expect(decodeEntities('&#147;quoted&#148; &#150;')).toBe('\u201cquoted\u201d \u2013');
    expect(decodeEntities('&#0; &#xD800; &#x110000;')).toBe('\ufffd \ufffd \ufffd');
  });

  it('leaves unknown references as written and decodes the legacy ones browsers accept without a semicolon', () => {
    expect(decodeEntities('&unknown; &copy AT&T &amp')).toBe('&unknown; \u00a9 AT&T &');
    expect(decodeEntities('&eacute no semicolon')).toBe('\u00e9 no semicolon');
  });

  it('knows the whole HTML5 table, not a hand-picked part of it', () => {
    expect(decodeEntities('&NotNestedLessLess; &bigstar; &Zcaron;&oacute;&lstrok; &frac78; &LeftArrowRightArrow;')).toBe(
      '\u2aa1\u0338 \u2605 \u017d\u00f3\u0142 \u215e \u21c6',
    );
  });

  it('keeps a query string in an attribute intact (a legacy name followed by "=" is text)', () => {
    const out = htmlToMarkdownText('<p><a href="https://x.example/?a=1&copy=2&amp;b=3">link</a></p>');
    expect(out.text).toContain('https://x.example/?a=1&copy=2&b=3');
  });
});

describe('htmlToMarkdownText: malformed input', () => {
  it('closes implied paragraphs and list items', () => {
    expect(htmlToMarkdownText('<p>One<p>Two<ul><li>A<li>B</ul>').text).toBe('One\n\nTwo\n\n- A\n- B');
  });

  it('survives unclosed and stray tags', () => {
    expect(htmlToMarkdownText('<div><p>Open <b>bold <i>both</div></span></p>after').text).toBe('Open bold both\n\nafter');
  });

  it('treats a lone "<" as text and drops a tag cut off at the end', () => {
    expect(htmlToMarkdownText('<p>if a < b then c</p><p>tail <a href="x').text).toBe('if a < b then c\n\ntail');
  });

  it('skips comments, including unterminated ones, and CDATA / processing instructions', () => {
    expect(htmlToMarkdownText('<p>A<!-- hidden --> B</p><?xml version="1.0"?><![CDATA[x]]><p>C<!-- never closed <p>D').text).toBe(
      'A B\n\nC',
    );
  });

  it('does not let script content that looks like tags escape', () => {
    const html = '<p>before</p><script>var s = "</div><h1>fake</h1>";</script><p>after</p>';
    expect(htmlToMarkdownText(html).text).toBe('before\n\nafter');
  });

  it('does not throw on garbage or odd inputs', () => {
    const inputs = [
      '',
      '<',
      '<<<>>>',
      '</',
      '<!',
      '<!--',
      '<a href=">',
      "<div class='x>text",
      '<p =a ==b>x</p>',
      '&#99999999999; &#xFFFFFFFF;',
      '<table><td>cell<tr>row</table></td></tr>',
      '<li>orphan</li></ul></ol>',
      '<svg/><p>after self-closing svg</p>',
      '\u0000\uffff\ud800',
      '<script>never closed',
    ];
    for (const input of inputs) {
      expect(() => htmlToMarkdownText(input), JSON.stringify(input)).not.toThrow();
    }
    expect(htmlToMarkdownText('').text).toBe('');
    expect(htmlToMarkdownText('<svg/><p>after self-closing svg</p>').text).toBe('after self-closing svg');
  });

  it('does not throw on randomly generated markup (fuzz)', () => {
    const pieces = [
      '<div>',
      '</div>',
      '<p>',
      '</p>',
      '<li>',
      '<ul>',
      '</ul>',
      '<table>',
      '<td>',
      '<tr>',
      '<pre>',
      '</pre>',
      '<a href="https://x.io">',
      '</a>',
      '<code>',
      '</code>',
      '<h2>',
      '</h2>',
      '<!--',
      '-->',
      '<',
      '>',
      '&amp;',
      '&#x',
      'text ',
      '"',
      "'",
      '<script>',
      '</script>',
      '<br/>',
      '<main>',
      '<nav>',
    ];
    let seed = 42;
    const rand = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let run = 0; run < 300; run++) {
      const html = Array.from({ length: rand(60) }, () => pieces[rand(pieces.length)]).join('');
      expect(() => htmlToMarkdownText(html), html).not.toThrow();
    }
  });

  it('handles pathological nesting without overflowing the stack', () => {
    const depth = 50_000;
    const html = '<div>'.repeat(depth) + 'deep text' + '</div>'.repeat(depth);
    const started = Date.now();
    expect(htmlToMarkdownText(html).text).toBe('deep text');
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
