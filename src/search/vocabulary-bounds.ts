// What documents may add to a LexicalIndex's vocabulary, and the accounting that enforces it. A term new
// to the vocabulary costs far more than a posting of a known one, so what one document, one owner (an
// agent) and all of them together may add to the vocabulary is bounded; a document keeps the terms that
// fit (field by field: name first) and stays searchable by them. When the vocabulary is full, or
// `memoryFull` says the heap is, new terms are refused and the status says so. Owners are numbered in
// order of first appearance (a term records its owner's number, -1 for none); an owner's count drops
// when compaction takes one of its terms out of the vocabulary.

/** What documents may add to the vocabulary (see the header). */
export interface TermLimits {
  /** Distinct terms one document has indexed, at most. */
  perDocument: number;
  /** Of those, terms new to the vocabulary. */
  newPerDocument: number;
  /** Terms of the vocabulary that one owner's documents brought in and that are still held. */
  perOwner: number;
  /** Terms in the vocabulary. */
  total: number;
}

export const UNBOUNDED_TERMS: TermLimits = {
  perDocument: Infinity,
  newPerDocument: Infinity,
  perOwner: Infinity,
  total: Infinity,
};

/** Terms refused so far, and whether the vocabulary is full now. */
export interface VocabularyStatus {
  terms: number;
  limit: number;
  /** Documents that had terms left out, and how many terms in all (since the index was made). */
  documentsCut: number;
  termsRefused: number;
  /** New terms are refused: the vocabulary reached its bound, or memory ran short. */
  full: false | 'terms' | 'memory';
}

/** The bounds' state kept in a snapshot (part of LexicalHead). */
export interface SavedBounds {
  documentsCut: number;
  termsRefused: number;
  /** Owner names by owner id. */
  owners: string[];
}

/** The bounds and the memory check, as set on the index (read at each use). */
export interface BoundsSettings {
  limits: TermLimits;
  memoryFull: () => boolean;
}

export class VocabularyBounds {
  private readonly settings: BoundsSettings;
  private readonly ownerIds = new Map<string, number>();
  private readonly ownerTerms: number[] = [];
  private memoryChecks = 0;
  private memoryShort = false;
  private documentsCut = 0;
  private termsRefused = 0;

  constructor(settings: BoundsSettings) {
    this.settings = settings;
  }

  /** Distinct terms one document may have indexed. */
  get perDocument(): number {
    return this.settings.limits.perDocument;
  }

  /** How many terms new to the vocabulary a document of this owner may bring now, with `terms` held. */
  newTermSlots(ownerId: number, terms: number): number {
    const { newPerDocument, perOwner, total } = this.settings.limits;
    // The heap is looked at every 64 documents: cheap, and often enough to stop well before it runs out.
    if (this.memoryChecks++ % 64 === 0) this.memoryShort = this.settings.memoryFull();
    if (this.memoryShort) return 0;
    const ownerLeft = ownerId >= 0 ? perOwner - this.ownerTerms[ownerId]! : Infinity;
    return Math.max(0, Math.min(newPerDocument, ownerLeft, total - terms));
  }

  /** The owner's number (a new one for an owner not seen yet). */
  ownerId(owner: string): number {
    let id = this.ownerIds.get(owner);
    if (id === undefined) {
      id = this.ownerTerms.length;
      this.ownerIds.set(owner, id);
      this.ownerTerms.push(0);
    }
    return id;
  }

  /** Whether an owner number was given (-1, no owner, always is). */
  knowsOwner(ownerId: number): boolean {
    return ownerId < this.ownerTerms.length;
  }

  /** A term the owner brought in entered the vocabulary. */
  termAdded(ownerId: number): void {
    if (ownerId >= 0) this.ownerTerms[ownerId]!++;
  }

  /** A term the owner brought in left the vocabulary. */
  termDropped(ownerId: number): void {
    if (ownerId >= 0) this.ownerTerms[ownerId]!--;
  }

  /** A document had `refused` of its terms left out (0: none). */
  refused(refused: number): void {
    if (refused > 0) {
      this.documentsCut++;
      this.termsRefused += refused;
    }
  }

  /** The vocabulary's size (`terms`) against its bound, and what the limits left out. */
  status(terms: number): VocabularyStatus {
    const { total } = this.settings.limits;
    const full = this.memoryShort ? 'memory' : terms >= total ? 'terms' : false;
    return {
      terms,
      limit: total,
      documentsCut: this.documentsCut,
      termsRefused: this.termsRefused,
      full,
    };
  }

  /** Terms of the vocabulary that `owner`'s documents brought in and that are still held. */
  ownerTermCount(owner: string): number {
    const id = this.ownerIds.get(owner);
    return id === undefined ? 0 : this.ownerTerms[id]!;
  }

  saved(): SavedBounds {
    return { documentsCut: this.documentsCut, termsRefused: this.termsRefused, owners: [...this.ownerIds.keys()] };
  }

  /** Restores, into bounds that saw no document, what saved() answered (owner counts follow the lists). */
  restore(s: SavedBounds): void {
    this.documentsCut = s.documentsCut;
    this.termsRefused = s.termsRefused;
    for (const owner of s.owners) this.ownerId(owner);
  }
}
