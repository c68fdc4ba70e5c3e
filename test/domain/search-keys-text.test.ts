import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { generateApiKey, hashApiKey, keyPrefixOf, looksLikeApiKey, sameHash } from '../../src/domain/keys.js';
import { commaList, searchTerms, textFilter } from '../../src/domain/search.js';
import { findUnstorableText } from '../../src/domain/text.js';

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
