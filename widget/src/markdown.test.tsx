import { Fragment, type ComponentChildren, type VNode } from 'preact';
import { describe, expect, it } from 'vitest';
import { renderMarkdown, safeUrl } from './markdown.js';

// A tiny render-to-string over the vnode tree: text is escaped exactly as the DOM would hold
// it, so any markup that survives as an element shows up here, and any attribute too.
const ALLOWED_TAGS = new Set(['p', 'br', 'strong', 'em', 'code', 'pre', 'ul', 'ol', 'li', 'a', 'blockquote', 'hr']);
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function html(node: ComponentChildren): string {
  if (node == null || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number') return esc(String(node));
  if (Array.isArray(node)) return node.map(html).join('');
  const v = node as VNode<Record<string, unknown>>;
  const { children, ...attrs } = v.props as { children?: ComponentChildren } & Record<string, unknown>;
  if (v.type === Fragment) return html(children);
  if (typeof v.type === 'function') return html((v.type as (p: unknown) => ComponentChildren)(v.props));
  const tag = v.type as string;
  if (!ALLOWED_TAGS.has(tag)) throw new Error(`unexpected element <${tag}>`);
  if ('dangerouslySetInnerHTML' in attrs) throw new Error('innerHTML used');
  const a = Object.entries(attrs)
    .filter(([, val]) => val !== undefined)
    .map(([k, val]) => ` ${k}="${esc(String(val))}"`)
    .join('');
  return `<${tag}${a}>${tag === 'br' || tag === 'hr' ? '' : `${html(children)}</${tag}>`}`;
}

const md = (s: string) => html(renderMarkdown(s));

describe('renderMarkdown', () => {
  it('renders paragraphs with line breaks, bold, italic and inline code', () => {
    expect(md('Hello **bold *nested* text** and *it* and `x < y` and ``a `b` c``\nnext line\n\nSecond')).toBe(
      '<p>Hello <strong>bold <em>nested</em> text</strong> and <em>it</em> and <code>x &lt; y</code> and <code>a `b` c</code><br>next line</p><p>Second</p>',
    );
  });

  it('leaves snake_case and lone asterisks alone', () => {
    expect(md('use snake_case_names and 2 * 3 * 4')).toBe('<p>use snake_case_names and 2 * 3 * 4</p>');
  });

  it('renders unordered and ordered lists with continuation lines', () => {
    expect(md('Steps:\n1. Open **Settings**\n2. Click Save\n   then wait\n\n- a\n- b')).toBe(
      '<p>Steps:</p><ol start="1"><li>Open <strong>Settings</strong></li><li>Click Save<br>then wait</li></ol><ul><li>a</li><li>b</li></ul>',
    );
    expect(md('3. three\n4. four')).toBe('<ol start="3"><li>three</li><li>four</li></ol>');
  });

  it('renders fenced code verbatim, and an unclosed fence mid-stream', () => {
    expect(md('```js\nconst a = "<b>";\n**not bold**\n```\nafter')).toBe(
      '<pre><code>const a = &quot;&lt;b&gt;&quot;;\n**not bold**</code></pre><p>after</p>',
    );
    expect(md('```\npartial')).toBe('<pre><code>partial</code></pre>');
  });

  it('renders headings as bold paragraphs', () => {
    expect(md('## Title\nText')).toBe('<p><strong>Title</strong></p><p>Text</p>');
  });

  it('renders http(s) and mailto links that open safely in a new tab', () => {
    expect(md('See [the docs](https://acme.test/docs?a=1&b=2) or mail [us](mailto:hi@acme.test).')).toBe(
      '<p>See <a href="https://acme.test/docs?a=1&amp;b=2" target="_blank" rel="noopener noreferrer">the docs</a> or mail <a href="mailto:hi@acme.test" target="_blank" rel="noopener noreferrer">us</a>.</p>',
    );
  });

  it('autolinks bare URLs without swallowing trailing punctuation', () => {
    expect(md('Go to https://acme.test/pricing.')).toBe(
      '<p>Go to <a href="https://acme.test/pricing" target="_blank" rel="noopener noreferrer">https://acme.test/pricing</a>.</p>',
    );
  });

  it('keeps raw HTML as text', () => {
    const out = md('<img src=x onerror="alert(1)"> <script>alert(1)</script> <a href="javascript:alert(1)">x</a>');
    expect(out).toBe(
      '<p>&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &lt;script&gt;alert(1)&lt;/script&gt; &lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt;</p>',
    );
  });

  it('refuses javascript:, data:, vbscript: and relative link targets (text only)', () => {
    for (const href of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox',
      '/relative',
      '//evil.test',
    ]) {
      const out = md(`[click](${href})`);
      expect(out, href).not.toContain('<a');
      expect(out, href).toContain('click');
    }
  });

  it('does not nest links or autolink inside a link label', () => {
    expect(md('[https://a.test](https://b.test)')).toBe(
      '<p><a href="https://b.test/" target="_blank" rel="noopener noreferrer">https://a.test</a></p>',
    );
  });

  it('markup inside link labels and emphasis cannot smuggle elements', () => {
    const out = md('**<img src=x onerror=alert(1)>** [<svg onload=alert(1)>](https://ok.test)');
    expect(out).not.toMatch(/<img|<svg/);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });
});

describe('safeUrl', () => {
  it('normalises allowed URLs and rejects the rest', () => {
    expect(safeUrl('https://a.test')).toBe('https://a.test/');
    expect(safeUrl('mailto:x@y.test')).toBe('mailto:x@y.test');
    expect(safeUrl('javascript:alert(1)')).toBeNull();
    expect(safeUrl('ftp://a.test')).toBeNull();
    expect(safeUrl(null)).toBeNull();
    expect(safeUrl('not a url')).toBeNull();
  });
});
