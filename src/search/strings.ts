// Interned texts with use counts, by small integer id (the attribute table's domains, publishers, tags,
// types): one copy of each repeated text, dropped when its last user is. Id -1 stands for no text.

export class Strings {
  private readonly ids = new Map<string, number>();
  private readonly texts: (string | undefined)[] = [];
  private readonly uses: number[] = [];
  private readonly free: number[] = [];
  private chars = 0;

  /** The id of `text` (one more use of it), -1 for none. */
  id(text: string | null | undefined): number {
    if (text === null || text === undefined) return -1;
    let id = this.ids.get(text);
    if (id !== undefined) {
      this.uses[id]!++;
      return id;
    }
    id = this.free.pop() ?? this.texts.length;
    this.texts[id] = text;
    this.uses[id] = 1;
    this.ids.set(text, id);
    this.chars += text.length;
    return id;
  }

  /** The id of `text` if it is held (no use added), else undefined. */
  find(text: string): number | undefined {
    return this.ids.get(text);
  }

  text(id: number): string | undefined {
    return id < 0 ? undefined : this.texts[id];
  }

  /** One use fewer of the id's text; the text is forgotten with its last use. */
  release(id: number): void {
    if (id < 0) return;
    if (--this.uses[id]! > 0) return;
    this.chars -= this.texts[id]!.length;
    this.ids.delete(this.texts[id]!);
    this.texts[id] = undefined;
    this.free.push(id);
  }

  /** Texts held. */
  get size(): number {
    return this.ids.size;
  }

  /** An estimate: a map entry, a slot and the text itself per text. */
  get byteLength(): number {
    return this.ids.size * 64 + this.chars;
  }
}
