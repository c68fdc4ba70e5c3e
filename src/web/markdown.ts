// Markdown written by strangers (SKILL.md bodies, unit descriptions) as inert HTML, behind two walls:
// 1. markdown-it with `html: false`: raw HTML in the text is never passed through, it is shown as text;
//    its link check refuses javascript:, vbscript:, file: and data: URLs.
// 2. sanitize-html, an allow-list over the result: only the tags markdown produces, only href/title on
//    links (http, https, mailto or relative; never protocol-relative), `start` on lists and language
//    classes on code. No style, no event handler, no image, no frame, nothing else survives.
// Links leave with rel="nofollow noopener ugc"; images become links (nothing is fetched from a
// stranger's host when a page is opened); headings move one level down under the page's own h1.
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

export interface MarkdownEnv {
  /** Where a relative link to a file of the skill's bundle leads (its path → its URL). */
  files?: ReadonlyMap<string, string>;
}

export const CONTENT_LINK_REL = 'nofollow noopener ugc';

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

// Link targets: an http(s) or mailto URL, or a relative one whose first segment has no colon (a browser
// could read `jav%09ascript:…` as neither, but nothing ambiguous is worth keeping). Besides markdown-it's own check.
const SAFE_TARGET = /^(?:https?:|mailto:|[^:/?#]*(?:[/?#]|$))/i;
const checkLink = markdown.validateLink.bind(markdown);
markdown.validateLink = (url) => checkLink(url) && SAFE_TARGET.test(url);

markdown.core.ruler.push('headings_below_page_title', (state) => {
  for (const token of state.tokens) {
    if (token.type === 'heading_open' || token.type === 'heading_close') {
      token.tag = `h${Math.min(6, Number(token.tag.slice(1)) + 1)}`;
    }
  }
});

/** A relative link to a bundle file (`scripts/run.py`, `./scripts/run.py`) points at that file's URL. */
function bundleLink(href: string, env: MarkdownEnv): string {
  if (!env.files || /^[a-z][a-z0-9+.-]*:|^[/#?]/i.test(href)) return href;
  let path: string;
  try {
    path = decodeURIComponent(href.split(/[?#]/)[0]!).replace(/^(\.\/)+/, '');
  } catch {
    return href;
  }
  return env.files.get(path) ?? href;
}

markdown.renderer.rules.link_open = (tokens, idx, options, env: MarkdownEnv, self) => {
  const token = tokens[idx]!;
  const href = token.attrGet('href');
  if (href !== null) token.attrSet('href', bundleLink(href, env));
  token.attrSet('rel', CONTENT_LINK_REL);
  return self.renderToken(tokens, idx, options);
};

// An image is shown as a link to it, labelled with its description: nothing loads from its host.
markdown.renderer.rules.image = (tokens, idx, _options, env: MarkdownEnv) => {
  const token = tokens[idx]!;
  const src = bundleLink(token.attrGet('src') ?? '', env);
  const label = `image: ${token.content || src}`;
  const escape = markdown.utils.escapeHtml;
  return `<a href="${escape(src)}" rel="${CONTENT_LINK_REL}">${escape(label)}</a>`;
};

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
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
  ],
  allowedAttributes: { a: ['href', 'title', 'rel'], ol: ['start'], code: ['class'] },
  allowedClasses: { code: [/^language-[A-Za-z0-9_+-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: {},
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  allowedStyles: {},
  // Anything else is dropped with its content when it can only run or embed (script, style, iframe…).
  nonTextTags: [
    'script',
    'style',
    'textarea',
    'option',
    'noscript',
    'iframe',
    'object',
    'embed',
    'svg',
    'math',
    'template',
  ],
  disallowedTagsMode: 'discard',
  enforceHtmlBoundary: false,
  parseStyleAttributes: false,
  transformTags: {
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: CONTENT_LINK_REL } }),
  },
};

/** Markdown as HTML that can run nothing and load nothing. */
export function renderMarkdown(text: string, env: MarkdownEnv = {}): string {
  return sanitizeHtml(markdown.render(text, env), ALLOWED);
}

/** Any HTML through the same allow-list (tests hold the sanitizer alone against hostile markup). */
export function sanitizeContent(html: string): string {
  return sanitizeHtml(html, ALLOWED);
}

/** A stranger's URL as a link target: only absolute http(s) URLs; anything else is shown as text. */
export function safeHttpUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}
