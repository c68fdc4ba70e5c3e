// Strangers' markdown as inert HTML: the renderer never passes raw HTML, and the sanitizer alone, given
// hostile HTML directly, keeps only its allow-list. The templates write unescaped only what is sanitized.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { renderMarkdown, safeHttpUrl, sanitizeContent } from '../../src/web/markdown.js';
import { HOSTILE_HTML, HOSTILE_MARKDOWN } from './seed.js';

/** Every tag in `html` with its attributes. */
const tags = (html: string) =>
  [...html.matchAll(/<([a-z0-9]+)((?:\s[^>]*)?)>/gi)].map((m) => ({ name: m[1]!.toLowerCase(), attrs: m[2]! }));

const ALLOWED_TAGS = new Set([
  'p',
  'br',
  'hr',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'code',
  'em',
  'strong',
  's',
  'a',
  'ul',
  'ol',
  'li',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
]);

function assertInert(html: string): void {
  for (const tag of tags(html)) {
    assert.ok(ALLOWED_TAGS.has(tag.name), `tag ${tag.name} is not on the allow-list`);
    const attributes = [...tag.attrs.matchAll(/\s([a-z-]+)=/gi)].map((m) => m[1]!.toLowerCase());
    for (const name of attributes)
      assert.ok(['href', 'title', 'rel', 'start', 'class'].includes(name), `attribute ${name} on ${tag.name}`);
    const href = /\shref="([^"]*)"/.exec(tag.attrs)?.[1];
    if (href !== undefined) assert.match(href, /^(https?:|mailto:|\/[^/\\]|[^:/]*$)/i, `href ${href}`);
    if (tag.name === 'a') assert.match(tag.attrs, /\srel="nofollow noopener ugc"/);
  }
}

describe('markdown from strangers', () => {
  it('shows raw HTML as text and keeps only safe links', () => {
    const html = renderMarkdown(HOSTILE_MARKDOWN);
    assertInert(html);
    assert.ok(html.includes('&lt;script&gt;window.__xss = 1; alert(1)&lt;/script&gt;'), 'raw HTML is shown as text');
    assert.ok(html.includes('<a href="https://example.org/docs" rel="nofollow noopener ugc">a fine link</a>'));
    assert.ok(!/<img/i.test(html), 'an image is a link to it, never fetched');
    assert.ok(
      html.includes('<a href="https://evil.example/pixel.png" rel="nofollow noopener ugc">image: tracking pixel</a>'),
    );
    assert.ok(html.includes('<h2>Hostile &lt;b&gt;heading&lt;/b&gt;</h2>'), 'headings move below the page title');
  });

  it('holds on its own against hostile HTML (the sanitizer alone)', () => {
    const html = sanitizeContent(HOSTILE_HTML);
    assertInert(html);
    assert.doesNotMatch(html, /alert|__xss/, 'nothing that runs survives, not even as an attribute');
    const links = sanitizeContent(
      '<a href="//evil.example">a</a><a href="/\\evil.example">b</a><a href="java\tscript:alert(1)">c</a><a href=" javascript:alert(1)">d</a><a href="https://ok.example/" target="_blank" onclick="x()">e</a>',
    );
    assert.equal(
      links,
      '<a rel="nofollow noopener ugc">a</a><a rel="nofollow noopener ugc">b</a><a rel="nofollow noopener ugc">c</a><a rel="nofollow noopener ugc">d</a><a href="https://ok.example/" rel="nofollow noopener ugc">e</a>',
    );
    assert.equal(
      sanitizeContent('<code class="language-js x" style="color:red">a</code><p style="x">b</p>'),
      '<code class="language-js">a</code><p>b</p>',
    );
  });

  it('links a relative path to the bundle file of that path, and leaves others alone', () => {
    const files = new Map([['scripts/run.py', '/v1/skills/sk_1/versions/1.0.0/files/scripts/run.py']]);
    const html = renderMarkdown('[run](./scripts/run.py) [other](notes.md) [abs](https://example.org/x)', { files });
    assert.ok(
      html.includes(
        '<a href="/v1/skills/sk_1/versions/1.0.0/files/scripts/run.py" rel="nofollow noopener ugc">run</a>',
      ),
    );
    assert.ok(html.includes('<a href="notes.md" rel="nofollow noopener ugc">other</a>'));
  });

  it('makes links of http(s) URLs only', () => {
    assert.equal(safeHttpUrl('https://example.org/a b'), 'https://example.org/a%20b');
    for (const value of ['javascript:alert(1)', 'data:text/html,x', 'example.org', '//evil.example', 'vbscript:x'])
      assert.equal(safeHttpUrl(value), null, value);
  });
});

describe('the templates', () => {
  it('write unescaped only layouts, includes and sanitized `…Html` values', () => {
    const dir = new URL('../../src/web/templates/', import.meta.url);
    for (const file of readdirSync(dir)) {
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const m of text.matchAll(/<%~\s*([^%]*?)\s*%>/g)) {
        assert.match(m[1]!, /^(include\('\.\/[a-z-]+', .*\)|it\.body|it\.[a-zA-Z]+Html)$/, `${file}: <%~ ${m[1]} %>`);
      }
      assert.doesNotMatch(
        text,
        /\sstyle=|\son[a-z]+=|<script>/i,
        `${file}: no inline style, handler or script (the CSP forbids them)`,
      );
    }
  });
});
