import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateApiKey, hashApiKey, keyPrefixOf, looksLikeApiKey, sameHash } from '../../src/domain/keys.js';
import { commaList, searchTerms, textFilter } from '../../src/domain/query-text.js';
import { controlCharacterIn, controlCharacterRefusal, findUnstorableText } from '../../src/domain/text.js';

describe('search terms', () => {
  it('keeps only words, lower-cased and de-duplicated', () => {
    assert.deepEqual(searchTerms('Caching "OR" NEAR(x, y) *foo* -bar caching'), [
      'caching',
      'or',
      'near',
      'x',
      'y',
      'foo',
      'bar',
    ]);
    assert.deepEqual(searchTerms('Ümlaut café 東京'), ['ümlaut', 'café', '東京']);
    assert.deepEqual(searchTerms('"*()'), []);
    assert.equal(searchTerms(Array.from({ length: 40 }, (_, i) => `w${i}`).join(' ')).length, 16);
  });

  it('treats a blank q as no filter and a wordless q as matching nothing', () => {
    assert.deepEqual(textFilter(undefined), []);
    assert.deepEqual(textFilter('   '), []);
    assert.equal(textFilter('***'), null);
    assert.deepEqual(textFilter('a b'), ['a', 'b']);
  });

  it('splits comma lists', () => {
    assert.deepEqual(commaList(' a, b,,a ,c '), ['a', 'b', 'c']);
    assert.deepEqual(commaList(undefined), []);
  });
});

describe('API keys', () => {
  it('are reg_ plus 40 base62 characters, hashed with SHA-256', () => {
    const key = generateApiKey();
    assert.match(key, /^reg_[0-9A-Za-z]{40}$/);
    assert.ok(looksLikeApiKey(key));
    assert.equal(keyPrefixOf(key), key.slice(0, 8));
    assert.equal(hashApiKey('reg_abc'), '1bddc9f8d8e4a513e41c8842a6641992a2735041362cfb0a95335c4dec6918ec');
    assert.match(hashApiKey(key), /^[0-9a-f]{64}$/);
    assert.notEqual(generateApiKey(), key);
    assert.equal(
      generateApiKey(() => 0),
      `reg_${'0'.repeat(40)}`,
    );
  });

  it('compares hashes in constant time and refuses malformed tokens', () => {
    assert.ok(sameHash(hashApiKey('a'), hashApiKey('a')));
    assert.ok(!sameHash(hashApiKey('a'), hashApiKey('b')));
    assert.ok(!sameHash('ab', 'abcd'));
    for (const bad of [
      'reg_',
      'reg_short',
      'xyz_' + 'a'.repeat(40),
      `reg_${'a'.repeat(39)}!`,
      `reg_${'a'.repeat(200)}`,
    ]) {
      assert.ok(!looksLikeApiKey(bad), bad);
    }
  });
});

describe('storable text', () => {
  it('finds NUL characters and lone surrogates, naming the path', () => {
    assert.equal(findUnstorableText({ a: 'ok', b: ['fine', 'x\u0000'] }), 'b.1');
    assert.equal(findUnstorableText({ c: { d: '\ud800' } }), 'c.d');
    assert.equal(findUnstorableText({ 'k\u0000': 1 }), 'k\u0000');
    assert.equal(findUnstorableText({ ok: '😀 \u200f', n: 1, z: null }), null);
    assert.equal(findUnstorableText('\udc00'), 'value');
  });
});

describe('control characters', () => {
  it('finds C0 controls but tab and line feed, DEL and C1; a carriage return only outside a line break', () => {
    for (const text of ['plain', 'tab\there', 'two\nlines', 'unicode é 😀 \u200b'])
      assert.equal(controlCharacterIn(text), null, text);
    assert.equal(controlCharacterIn('a\u001b[8mb'), 'U+001B');
    assert.equal(controlCharacterIn('bell\u0007'), 'U+0007');
    assert.equal(controlCharacterIn('\u0000'), 'U+0000');
    assert.equal(controlCharacterIn('form\ffeed'), 'U+000C');
    assert.equal(controlCharacterIn('del\u007f'), 'U+007F');
    assert.equal(controlCharacterIn('csi\u009b'), 'U+009B');
    assert.equal(controlCharacterIn('crlf\r\n'), 'U+000D', 'no line breaks in a one-line field');
    assert.equal(controlCharacterIn('crlf\r\n', true), null);
    assert.equal(controlCharacterIn('over\rwrite', true), 'U+000D', 'a lone carriage return overwrites the line');
  });

  it('refuses them naming the field', () => {
    assert.equal(controlCharacterRefusal('title', 'ok'), null);
    assert.equal(
      controlCharacterRefusal('title', 'x\u001b]52;c;ZXZpbA==\u0007'),
      'title must not contain control characters (found U+001B; only tab and line feed are allowed): a terminal acts on them, which can hide text from a reader',
    );
  });
});
