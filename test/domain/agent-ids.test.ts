// The look-alike key of agent ids, proved over Unicode's look-alike table itself: every entry, every cased
// character, and generated chains of swaps and case changes; and ordinary ids that differ stay apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import table from 'unhomoglyph/data.json' with { type: 'json' };
import { agentIdSkeleton, isReservedForIdentityProvider } from '../../src/domain/agent-ids.js';
import { EXTRA_LOOKALIKES, LAST_CASED_CODE_POINT, lookalikeKey, skeleton } from '../../src/domain/confusables.js';

const ID_CHARACTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._:@-'];
const ENTRIES: [string, string][] = [...Object.entries(table as Record<string, string>), ...EXTRA_LOOKALIKES];
const codePoints = (text: string) => Array.from(text);
const single = (text: string) => codePoints(text).length === 1;

// TR39 takes the skeleton of the decomposed text, where an entry whose source is precomposed applies only
// if the table maps the decomposition alike; these sources' do not (`ȧ` → `å`: dot above, ring above).
const NOT_APPLIED_BY_TR39 = new Set(
  '\u0227\u0226\u01f5\u0623\u0150\u01a1\u01a0\u0163\u021b\u1e43\u1f7d\u0419\u045d\ufb2f\ufb30\ufb39\ufb49\u00f6\u0624\u0626\u1ff6',
);
const ENTRIES_APPLIED = ENTRIES.filter(([from]) => !NOT_APPLIED_BY_TR39.has(from));

/** What the case of a character may become while it keeps its look: for what the skeleton keeps, or in an id. */
function caseVariants(c: string): string[] {
  if (skeleton(c) !== c && !ID_CHARACTERS.includes(c)) return [];
  return [c.toLowerCase(), c.toUpperCase()].filter((other) => other !== c && single(other));
}

describe('look-alike agent ids', () => {
  it('gives the ids of the finding one skeleton, in every order of case and look-alikes', () => {
    const alice = agentIdSkeleton('alice');
    for (const id of ['AIice', 'ALlCE', 'a1ice', 'Alice', 'aIice', 'ALICE', 'a|ice']) {
      assert.equal(agentIdSkeleton(id), alice, id);
    }
    assert.equal(agentIdSkeleton('Mary'), agentIdSkeleton('rnary'));
    assert.equal(agentIdSkeleton('RNARY'), agentIdSkeleton('mary'));
    assert.equal(agentIdSkeleton('Will'), agentIdSkeleton('vviII'));
    assert.equal(agentIdSkeleton('0scar'), agentIdSkeleton('oSCAR'));
    assert.equal(agentIdSkeleton('ѕаѕhа'), agentIdSkeleton('SASHA'), 'Cyrillic letters look Latin');
  });

  it('joins the characters of an id exactly into these classes', () => {
    const classes = new Map<string, string>();
    for (const c of ID_CHARACTERS) classes.set(lookalikeKey(c), (classes.get(lookalikeKey(c)) ?? '') + c);
    const joined = [...classes.values()].filter((members) => members.length > 1 || /[mMwW]/.test(members));
    const cased = [...'ABCDEFGHJKNPQRSTUVXYZ'].map((c) => `${c}${c.toLowerCase()}`);
    assert.deepEqual(joined.sort(), [...cased, 'ILil1', 'Mm', 'Oo0', 'Ww'].sort());
    assert.equal(lookalikeKey('m'), lookalikeKey('rn'));
    assert.equal(lookalikeKey('w'), lookalikeKey('vv'));
  });

  it("gives every entry of Unicode's look-alike table, and the extra ones, one key for source and target", () => {
    assert.equal(ENTRIES_APPLIED.length, ENTRIES.length - NOT_APPLIED_BY_TR39.size);
    for (const [from, to] of ENTRIES_APPLIED) assert.equal(lookalikeKey(from), lookalikeKey(to), `${from} → ${to}`);
    // Those TR39 does not apply are precomposed letters whose look-alike has a mark or symbol that no id of
    // letters, digits and `. _ : @ -` has, so no key-registered id can be either side.
    for (const [from, to] of ENTRIES.filter(([source]) => NOT_APPLIED_BY_TR39.has(source))) {
      assert.notEqual(from.normalize('NFD'), from, from);
      assert.ok(
        codePoints(to).some((c) => !ID_CHARACTERS.includes(c)),
        to,
      );
    }
  });

  it('gives every cased character the key of its other case, where it keeps its look', () => {
    let checked = 0;
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp === 0xd800) cp = 0xe000;
      const c = String.fromCodePoint(cp);
      for (const other of caseVariants(c)) {
        assert.equal(lookalikeKey(other), lookalikeKey(c), `${c} (U+${cp.toString(16)}) and ${other}`);
        checked++;
      }
    }
    assert.ok(checked > 1_500, `${checked} case pairs`);
    for (let cp = LAST_CASED_CODE_POINT + 1; cp <= 0x10ffff; cp++) {
      assert.doesNotMatch(
        String.fromCodePoint(cp),
        /\p{Changes_When_Casemapped}/u,
        'cased characters end where the fold looks',
      );
    }
  });

  it('keeps the key through any chain of look-alike swaps (the table, both ways) and case changes', () => {
    const piece = fc.oneof(
      fc.constantFrom(...ID_CHARACTERS),
      fc
        .tuple(fc.integer({ min: 0, max: ENTRIES_APPLIED.length - 1 }), fc.boolean())
        .map(([i, source]) => ENTRIES_APPLIED[i]![source ? 0 : 1]),
    );
    const step = fc.record({ swap: fc.boolean(), pick: fc.nat(), at: fc.nat(), upper: fc.boolean() });
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 12 }),
        fc.array(step, { maxLength: 12 }),
        (pieces, steps) => {
          const start = pieces.join('');
          let text = start;
          for (const { swap, pick, at, upper } of steps)
            text = swap ? swapLookalike(text, pick, at) : changeCase(text, at, upper);
          assert.equal(lookalikeKey(text), lookalikeKey(start), `${JSON.stringify(start)} → ${JSON.stringify(text)}`);
          assert.equal(lookalikeKey(lookalikeKey(start)), lookalikeKey(start), 'the key is its own key');
        },
      ),
      { numRuns: 300, seed: 20_261_122 },
    );
  });

  it('keeps ids apart that differ by more than case, when none of their characters look alike', () => {
    const plain = fc.constantFrom(...'ABCDEFGHJKNPQSTUXYZabcdefghjknpqstuxyz23456789._:@-');
    const id = fc.array(plain, { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(id, id, (a, b) => {
        assert.equal(lookalikeKey(a) === lookalikeKey(b), a.toLowerCase() === b.toLowerCase(), `${a} ${b}`);
      }),
      { numRuns: 2_000, seed: 20_261_122 },
    );
    const sample = ['alice', 'bob', 'carol', 'dave', 'eve', 'mallory', 'trent', 'walter', 'victor', 'ops', 'admin'];
    const more = ['root', 'agent-007', 'agent-008', 'alice2', 'alice.bot', 'alice_bot', 'alice-bot', 'bot@alice'];
    const keys = new Set([...sample, ...more].map(agentIdSkeleton));
    assert.equal(keys.size, sample.length + more.length);
  });

  it('reserves the ids that look like the identity provider prefix, case set aside', () => {
    assert.equal(isReservedForIdentityProvider('idp:alice', 'idp:'), true);
    assert.equal(isReservedForIdentityProvider('IDP:alice', 'idp:'), true);
    assert.equal(isReservedForIdentityProvider('ldp:alice', 'idp:'), true);
    assert.equal(isReservedForIdentityProvider('1DP:alice', 'idp:'), true);
    assert.equal(isReservedForIdentityProvider('idq:alice', 'idp:'), false);
    assert.equal(isReservedForIdentityProvider('alice', undefined), false);
  });
});

const SWAPS: [string, string][] = ENTRIES_APPLIED.flatMap(([from, to]): [string, string][] => [
  [from, to],
  [to, from],
]);

/** The text with one occurrence of a table entry's side (the `pick`-th that occurs, its `at`-th place) swapped for the other. */
function swapLookalike(text: string, pick: number, at: number): string {
  const found = SWAPS.filter(([from]) => text.includes(from));
  if (found.length === 0) return text;
  const [from, to] = found[pick % found.length]!;
  const places: number[] = [];
  for (let i = text.indexOf(from); i >= 0; i = text.indexOf(from, i + 1)) places.push(i);
  const place = places[at % places.length]!;
  return text.slice(0, place) + to + text.slice(place + from.length);
}

/** The text with the character at `at` in its upper or lower case, where it keeps its look. */
function changeCase(text: string, at: number, upper: boolean): string {
  const chars = codePoints(text);
  if (chars.length === 0) return text;
  const i = at % chars.length;
  const other = caseVariants(chars[i]!).find((v) => v === (upper ? v.toUpperCase() : v.toLowerCase()));
  if (other) chars[i] = other;
  return chars.join('');
}
