// Text analysis shared by indexing and querying: Unicode-aware tokens, lower-cased, diacritics folded;
// words split on punctuation, camelCase, kebab-case and snake_case (the joined form of a compound kept
// too: `next.js` gives `next`, `js` and `nextjs`); CJK text as overlapping character bigrams; English stop
// words dropped (stopwords.ts); Porter2 stems (wink-porter2-stemmer, the Snowball English algorithm);
// technical equivalences added (synonyms.ts). Pure and deterministic.
import stemWord from 'wink-porter2-stemmer';
import { ENGLISH_STOP_WORDS, QUERY_GENERIC_WORDS, QUERY_STOP_WORDS, type StopWordList } from './stopwords.js';
import { SYNONYM_GROUPS } from './synonyms.js';

/** Raised whenever analysis changes (tokens, stop words, stems): saved indexes are then rebuilt. */
export const ANALYZER_REVISION = 1;

export interface AnalyzerOptions {
  /** Stop words dropped from items; queries also drop the query-only lists of the variant. */
  stopWords: StopWordList;
  stem: boolean;
  /** Also emit the joined form of a compound word (`code-review` → `code`, `review`, `codereview`). */
  joinCompounds: boolean;
  synonyms: boolean;
  /** Longest token kept (longer ones are hashes, base64, minified code). */
  maxTokenLength: number;
}

export const DEFAULT_ANALYZER: AnalyzerOptions = {
  stopWords: 'english+query',
  stem: true,
  joinCompounds: true,
  synonyms: true,
  maxTokenLength: 40,
};

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUNS =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
/** A word with its inner joiners: `node.js`, `snake_case`, `kebab-case`, `ci/cd`, `v1.2`. */
const CHUNK = /[\p{L}\p{N}]+(?:[._\-/:][\p{L}\p{N}]+)*/gu;
const JOINERS = /[._\-/:]+/;
const CAMEL = /(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** Lower-case and fold diacritics (é → e, ß stays), keeping CJK and Hangul intact. */
export function foldText(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC');
}

/** Symbols that name languages or platforms and would otherwise vanish with the punctuation. */
function rewriteSymbols(text: string): string {
  return text
    .replace(/(^|[^\p{L}\p{N}])c\+\+/giu, '$1 cplusplus ')
    .replace(/(^|[^\p{L}\p{N}])c#/giu, '$1 csharp ')
    .replace(/(^|[^\p{L}\p{N}])f#/giu, '$1 fsharp ')
    .replace(/(^|[^\p{L}\p{N}.])\.net\b/giu, '$1 dotnet ')
    .replace(/(\p{L})['’](s|re|ve|ll|d|m)\b/giu, '$1')
    .replace(/(\p{L})n['’]t\b/giu, '$1nt');
}

interface Token {
  /** Lower-case surface form (before stemming): stop words are judged on it. */
  word: string;
  term: string;
  /** A joined compound or a synonym: not part of the word sequence for phrases. */
  extra: boolean;
}

export class Analyzer {
  readonly options: AnalyzerOptions;
  private readonly itemStops: Set<string>;
  private readonly queryStops: Set<string>;
  private readonly stemCache = new Map<string, string>();
  /** First term of a synonym member → [member terms, canonical term]. */
  private readonly synonymIndex = new Map<string, Array<[string[], string]>>();

  constructor(options: Partial<AnalyzerOptions> = {}) {
    this.options = { ...DEFAULT_ANALYZER, ...options };
    const list = this.options.stopWords;
    this.itemStops = new Set(list === 'none' ? [] : ENGLISH_STOP_WORDS);
    this.queryStops = new Set([
      ...this.itemStops,
      ...(list === 'english+query' || list === 'english+query+generic' ? QUERY_STOP_WORDS : []),
      ...(list === 'english+query+generic' ? QUERY_GENERIC_WORDS : []),
    ]);
    if (this.options.synonyms) {
      for (const group of SYNONYM_GROUPS) {
        const canonical = this.stem(group[0]!);
        for (const member of group) {
          const terms = member.split(' ').map((w) => this.stem(w));
          const list2 = this.synonymIndex.get(terms[0]!) ?? [];
          list2.push([terms, canonical]);
          this.synonymIndex.set(terms[0]!, list2);
        }
      }
      for (const list2 of this.synonymIndex.values()) list2.sort((a, b) => b[0].length - a[0].length);
    }
  }

  stem(word: string): string {
    if (!this.options.stem || word.length <= 3 || !/^[a-z]+$/.test(word)) return word;
    let s = this.stemCache.get(word);
    if (s === undefined) {
      s = stemWord(word);
      if (this.stemCache.size > 200_000) this.stemCache.clear();
      this.stemCache.set(word, s);
    }
    return s;
  }

  /** Every token of `text` in order, stop words included (flagged by their `word`). */
  private tokens(text: string): Token[] {
    const out: Token[] = [];
    const max = this.options.maxTokenLength;
    const push = (word: string, extra: boolean) => {
      if (word.length === 0 || word.length > max) return;
      out.push({ word, term: this.stem(word), extra });
    };
    for (const chunk of rewriteSymbols(foldText(text)).match(CHUNK) ?? []) {
      if (CJK.test(chunk)) {
        for (const run of chunk.match(CJK_RUNS) ?? []) {
          if (CJK.test(run)) {
            const chars = [...run];
            if (chars.length === 1) push(run, false);
            for (let i = 0; i + 1 < chars.length; i++) push(chars[i]! + chars[i + 1]!, false);
          } else for (const w of run.split(/[^\p{L}\p{N}]+/u)) push(w.toLowerCase(), false);
        }
        continue;
      }
      const parts: string[] = [];
      for (const piece of chunk.split(JOINERS)) for (const p of piece.split(CAMEL)) if (p) parts.push(p.toLowerCase());
      for (const p of parts) push(p, false);
      if (this.options.joinCompounds && parts.length > 1) {
        const joined = parts.join('');
        if (joined.length <= max && !/^\d+$/.test(joined)) push(joined, true);
      }
    }
    return out;
  }

  private analyze(text: string, stops: Set<string>): string[] {
    const toks = this.tokens(text);
    const out: string[] = [];
    const seq = this.options.synonyms ? toks.filter((t) => !t.extra) : [];
    for (const t of toks) if (!stops.has(t.word)) out.push(t.term);
    for (let i = 0; i < seq.length; i++) {
      const candidates = this.synonymIndex.get(seq[i]!.term);
      if (!candidates) continue;
      for (const [terms, canonical] of candidates) {
        let ok = i + terms.length <= seq.length;
        for (let j = 1; ok && j < terms.length; j++) ok = seq[i + j]!.term === terms[j];
        if (ok) {
          if (!(terms.length === 1 && terms[0] === canonical)) out.push(canonical);
          break;
        }
      }
    }
    return out;
  }

  /** Terms of an item's field: stop words dropped, repeated terms kept (they are term frequencies). */
  indexTerms(text: string): string[] {
    return this.analyze(text, this.itemStops);
  }

  /**
   * Terms of a query, in order, de-duplicated, with the query-only stop words dropped too. A query of only
   * stop words keeps them rather than match nothing ("how to" still finds something about "how").
   */
  queryTerms(text: string): string[] {
    const terms = [...new Set(this.analyze(text, this.queryStops))];
    if (terms.length > 0) return terms;
    return [...new Set(this.analyze(text, new Set()))];
  }

  /** The surface words of a name in order (no stemming, no stop words): for exact and phrase matches. */
  nameKey(text: string): string {
    return foldText(text)
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, '');
  }
}
