// What the search module knows of an item: plain text fields, no storage concerns. Skills and knowledge
// units both map onto it (see toSearchDocument helpers in index.ts).
import type { Analyzer } from './analyzer.js';
import type { SearchConfig } from './hybrid.js';

/** One searchable item. `key` is a caller-chosen non-negative integer (e.g. the store's row sequence). */
export interface SearchDocument {
  key: number;
  /** Skill `name` (slug or display name) or unit `title`. Highest weight; exact matches rank first. */
  name: string;
  /** Skill `description` or unit `content.description`. */
  description: string;
  tags: string[];
  domain?: string | null;
  /** Skill markdown body, or a unit's examples joined by newlines. */
  body: string;
  /** Who the item is from (an agent id): what one owner adds to the vocabulary is bounded. */
  owner?: string;
}

/**
 * The terms of each field of a document, as indexed (name, description, tags and domain, body), with the
 * engine's analyzer and its configuration's body options.
 */
export function documentFields(
  analyzer: Analyzer,
  config: Pick<SearchConfig, 'bodyWords' | 'bodyProseOnly'>,
  doc: SearchDocument,
): string[][] {
  const a = analyzer;
  // Analysis of a long body is the costly part of indexing: only its start is read when bodyWords is set.
  const bw = config.bodyWords;
  let text = doc.body;
  if (config.bodyProseOnly)
    text = text.replace(/^ {0,3}(```|~~~)[\s\S]*?(^ {0,3}\1|(?![\s\S]))/gm, ' ').replace(/<[^>\n]{1,200}>/g, ' ');
  let body = a.indexTerms(bw > 0 ? text.slice(0, bw * 12) : text);
  if (config.bodyWords > 0 && body.length > config.bodyWords) body = body.slice(0, config.bodyWords);
  const tags = [...doc.tags, ...(doc.domain ? [doc.domain] : [])].join(' , ');
  return [a.indexTerms(doc.name), a.indexTerms(doc.description), a.indexTerms(tags), body];
}

/**
 * Characters of body that go into the text an item's embedding is computed from. 0: name and description
 * only, what a person searching has in mind; with USE-lite as good as adding 300 body characters
 * (RESULTS.md step 7) and 1.7× cheaper to embed.
 */
export const DEFAULT_EMBED_BODY_CHARS = 0;
/** Upper bound of the whole embedded text (USE-lite's cost grows with length up to ~600 characters). */
export const DEFAULT_EMBED_MAX_CHARS = 600;

/** `code-review_tool` → `code review tool`; camelCase → camel Case. */
export function humanizeName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[-_./]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Markdown noise that carries no meaning for an embedding: fences, headings marks, links, HTML tags. */
function plainText(md: string): string {
  return md
    .replace(/```[\s\S]*?(```|$)/g, ' ')
    .replace(/<[^>]{1,200}>/g, ' ')
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[#>*_`|~]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * The text an item is embedded from: its name made readable, its description, then the start of its body
 * as plain text, cut at `maxChars`.
 */
export function embeddingText(
  doc: Pick<SearchDocument, 'name' | 'description' | 'body'>,
  bodyChars = DEFAULT_EMBED_BODY_CHARS,
  maxChars = DEFAULT_EMBED_MAX_CHARS,
): string {
  const head = `${humanizeName(doc.name)}. ${doc.description.replace(/\s+/g, ' ').trim()}`;
  const body = bodyChars > 0 ? plainText(doc.body.slice(0, bodyChars * 4)).slice(0, bodyChars) : '';
  const text = body ? `${head} ${body}` : head;
  return text.length > maxChars ? text.slice(0, maxChars) : text;
}
