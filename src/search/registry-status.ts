// The registry search index's figures for `/readyz` (registry-search.ts): each index's memory, walked
// at most every MEMORY_EVERY_MS when the vocabulary is large and shared by callers at the same moment,
// how far a build is, in words, and the log's word when a vocabulary is full.
import type { SearchKind } from './feed.js';
import type { VocabularyStatus } from './lexical.js';
import type { IndexMemory, KindIndex } from './registry-index.js';
import type { Log } from './registry-options.js';
import type { BuildProgress } from './registry-sync.js';

/** /readyz's memory figures are this old at most. */
const MEMORY_EVERY_MS = 10_000;

type Figures = Record<SearchKind, IndexMemory>;

export class MemoryFigures {
  private walk: Promise<Figures> | null = null;
  /** The figures, when, and of which indexes (a load or a rebuild replaces them). */
  private cache: { at: number; of: Record<SearchKind, KindIndex>; figures: Figures } | null = null;

  /**
   * Each index's figures. Computing them walks the vocabulary (in slices, so requests are served
   * meanwhile); with a large one, at most every MEMORY_EVERY_MS, and callers at the same moment share one walk.
   */
  async of(indexes: Record<SearchKind, KindIndex>): Promise<Figures> {
    const now = Date.now();
    const cheap = indexes.skill.engine.lexical.vocabularySize + indexes.unit.engine.lexical.vocabularySize < 100_000;
    const cache = this.cache;
    if (!cheap && cache && cache.of === indexes && now - cache.at < MEMORY_EVERY_MS) return cache.figures;
    if (this.walk) return this.walk;
    const of = indexes;
    this.walk = (async () => {
      const figures = { skill: await of.skill.memory(), unit: await of.unit.memory() };
      this.cache = { at: now, of, figures };
      return figures;
    })().finally(() => (this.walk = null));
    return this.walk;
  }
}

/** How far the build is, in words. */
export function loadingText({ done, total }: BuildProgress): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const share = total > 0 ? Math.min(99, Math.floor((100 * done) / total)) : 0;
  return `search index loading: ${share}% (${n(done)} of ${n(total)})`;
}

/** Says once, in the log, when a vocabulary starts refusing new terms (and why). */
export class FullVocabularyNotice {
  private readonly noted: Record<SearchKind, boolean> = { skill: false, unit: false };

  note(kind: SearchKind, status: VocabularyStatus, log: Log | undefined): void {
    if (status.full === false) this.noted[kind] = false;
    if (status.full === false || this.noted[kind]) return;
    this.noted[kind] = true;
    log?.warn(
      { kind, ...status },
      'the search vocabulary is full: new words are not indexed (raise REG_SEARCH_MAX_TERMS or the heap)',
    );
  }
}
