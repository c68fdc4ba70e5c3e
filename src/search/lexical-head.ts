// A LexicalIndex's head (everything but its postings lists, which snapshot.ts saves and restores) taken
// and put back, and the check of a saved postings list before it is restored.
import type { Bm25fImpacts } from './bm25f.js';
import type { DocumentTable } from './document-table.js';
import type { LexicalHead } from './lexical-types.js';
import type { SavedList, TermStore } from './term-store.js';
import type { VocabularyBounds } from './vocabulary-bounds.js';
import { packedFits } from './packed-tfs.js';

/** The parts of a LexicalIndex its head is made of. */
export interface HeadParts {
  nf: number;
  terms: TermStore;
  docs: DocumentTable;
  bm25f: Bm25fImpacts;
  bounds: VocabularyBounds;
}

/** A copy of the head, now. */
export function takeHead(x: HeadParts, deadPostings: number): LexicalHead {
  const { lens, keys, alive, ...docs } = x.docs.saved();
  return { ...docs, averages: [...x.bm25f.averages], deadPostings, ...x.bounds.saved(), lens, keys, alive };
}

/** Restores a head into parts that hold nothing (the caller restores `deadPostings`). */
export function putHead(x: HeadParts, h: LexicalHead): void {
  if (x.docs.nextOrd !== 0 || x.terms.size !== 0) throw new Error('restoring into an index that is not empty');
  x.docs.restore(h);
  x.bm25f.averages = Float64Array.from(h.averages);
  x.bounds.restore(h);
}

/** Throws unless the saved list fits (ordinals ascending, within the head's, arrays long enough, term new). */
export function checkList(x: HeadParts, term: string, p: SavedList): void {
  const n = p.length;
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = p.docs[i - 1]! < p.docs[i]!;
  if (
    !sorted ||
    p.docs.length < n ||
    !packedFits(p.tfs, n, x.nf) ||
    p.imp.length < n ||
    (n > 0 && (p.docs[0]! < 0 || p.docs[n - 1]! >= x.docs.nextOrd)) ||
    !x.bounds.knowsOwner(p.owner) ||
    x.terms.id(term) !== undefined
  )
    throw new Error(`a postings list of the wrong shape: ${term}`);
}
