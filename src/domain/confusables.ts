// What a text looks like, with letter case set aside: the key two agent ids share when one can pass for the
// other. Unicode's look-alike table (TR39 confusables, via unhomoglyph) maps each character to a prototype;
// case is then folded on what the characters look like, over classes closed under both relations.
import unhomoglyph from 'unhomoglyph';

/** Look-alikes in ids that Unicode's table leaves apart, in its direction (as it has `rn` for `m`). */
export const EXTRA_LOOKALIKES: ReadonlyMap<string, string> = new Map([['w', 'vv']]);

const CASED = /\p{Changes_When_Casemapped}/u;
/** Every character with a case lies in the first two planes (a test holds Node's Unicode data to it). */
export const LAST_CASED_CODE_POINT = 0x1ffff;
const byCodePoint = (a: string, b: string) => a.codePointAt(0)! - b.codePointAt(0)!;

/**
 * The TR39 skeleton (decomposed, each character replaced by its prototype, decomposed again), repeated
 * until nothing changes, since a prototype of the extra look-alikes may itself have one.
 */
export function skeleton(text: string): string {
  let current = text.normalize('NFD');
  for (;;) {
    const mapped = Array.from(unhomoglyph(current), (c) => EXTRA_LOOKALIKES.get(c) ?? c).join('');
    const next = mapped.normalize('NFD');
    if (next === current) return current;
    current = next;
  }
}

/**
 * For each prototype (a character the skeleton keeps) that has a case, what it folds to: one
 * representative (the lowest code point) of the class that joins it with the skeletons of its upper and
 * lower case, or, when one of them looks like several characters (`M`: `m` is `rn`), their folds.
 * Classes are closed (`i` and `l` are one, because `I` looks like `l`), but only over what characters
 * look like: Greek `ν` looks like `v` and its capital `Ν` like `N`, and closing over them too would make
 * `v` and `n` one. Case mappings to several characters (`ß`, `SS`) are not look-alikes and are left out.
 * Built on first use, from the first two planes' code points (a few milliseconds).
 */
function buildCaseFolds(): Map<string, string> {
  const parent = new Map<string, string>();
  const root = (c: string): string => {
    let r = c;
    for (let up = parent.get(r); up !== undefined; up = parent.get(r)) r = up;
    return r;
  };
  const join = (a: string, b: string) => {
    const [low, high] = [root(a), root(b)].sort(byCodePoint) as [string, string];
    if (low !== high) parent.set(high, low);
  };
  const spelled = new Map<string, string>(); // a character whose other case looks like several characters
  for (let cp = 0; cp <= LAST_CASED_CODE_POINT; cp++) {
    if (cp === 0xd800) cp = 0xe000; // surrogates are not characters
    const c = String.fromCodePoint(cp);
    if (!CASED.test(c) || skeleton(c) !== c) continue;
    for (const other of [c.toLowerCase(), c.toUpperCase()]) {
      if (other === c || Array.from(other).length > 1) continue;
      const look = skeleton(other);
      if (Array.from(look).length === 1) join(c, look);
      else spelled.set(c, look);
    }
  }
  const spelledByClass = new Map<string, string>();
  for (const [c, look] of spelled) if (!spelledByClass.has(root(c))) spelledByClass.set(root(c), look);
  const folds = new Map<string, string>();
  const foldOf = (c: string): string => {
    const known = folds.get(c);
    if (known !== undefined) return known;
    folds.set(c, root(c)); // a class whose look spells one of its own (none does) stops here
    const look = spelledByClass.get(root(c));
    const fold = look === undefined ? root(c) : Array.from(look, foldOf).join('');
    folds.set(c, fold);
    return fold;
  };
  for (const c of [...parent.keys(), ...parent.values(), ...spelled.keys()]) foldOf(c);
  return folds;
}

let caseFolds: Map<string, string> | undefined;

/**
 * The key of everything a text can pass for: its skeleton, case folded on the look. Two texts share it
 * when one turns into the other by swapping characters for their look-alikes (either way) and changing
 * the case of what the characters look like: `alice`, `Alice`, `ALICE`, `a1ice`, `aIice`, `AIice`, `ALlCE`.
 * Agents' keys are stored: a change to this rule or to the table needs a migration that computes them again.
 */
export function lookalikeKey(text: string): string {
  caseFolds ??= buildCaseFolds();
  const folds = caseFolds;
  return Array.from(skeleton(text), (c) => folds.get(c) ?? c).join('');
}
