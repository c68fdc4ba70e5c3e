import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Analyzer } from '../../src/search/analyzer.js';

test('English stop words and query-only words are dropped from queries', () => {
  const a = new Analyzer();
  assert.deepEqual(a.queryTerms('How do I want to deploy the app?'), ['deploy', 'app']);
  // Items keep query-only words such as "help" (a help-desk skill stays findable by its name).
  assert.ok(a.indexTerms('a help desk').includes('help'));
  assert.ok(!a.indexTerms('the help desk').includes('the'));
});

test('a query of only stop words keeps its words rather than match nothing', () => {
  assert.deepEqual(new Analyzer().queryTerms('how to'), ['how', 'to']);
});

test('compounds split on punctuation and camelCase, joined form kept', () => {
  const a = new Analyzer({ stem: false });
  assert.deepEqual(a.indexTerms('code-review_tool'), ['code', 'review', 'tool', 'codereviewtool']);
  assert.deepEqual(a.indexTerms('getHTTPResponse'), ['get', 'http', 'response', 'gethttpresponse']);
  assert.deepEqual(new Analyzer({ stem: false, joinCompounds: false, synonyms: false }).indexTerms('next.js'), [
    'next',
    'js',
  ]);
});

test('diacritics are folded and case is lowered', () => {
  assert.deepEqual(new Analyzer({ stem: false }).indexTerms('Café NAÏVE Résumé'), ['cafe', 'naive', 'resume']);
});

test('language symbols survive as words', () => {
  assert.deepEqual(new Analyzer({ stem: false, synonyms: false }).indexTerms('C++ or C# on .NET'), [
    'cplusplus',
    'csharp',
    'dotnet',
  ]);
});

test('CJK text becomes overlapping bigrams', () => {
  assert.deepEqual(new Analyzer().indexTerms('网页爬虫'), ['网页', '页爬', '爬虫']);
});

test('stemming conflates inflections', () => {
  const a = new Analyzer();
  assert.deepEqual(a.queryTerms('deploying'), a.queryTerms('deployment'));
  assert.deepEqual(a.queryTerms('skills'), a.queryTerms('skill').length ? a.queryTerms('skill') : ['skill']);
});

test('synonyms apply the same way to items and queries, both directions', () => {
  const a = new Analyzer({ synonyms: true });
  const k8s = a.queryTerms('k8s');
  const kube = a.queryTerms('kubernetes');
  assert.ok(k8s.some((t) => kube.includes(t)));
  assert.ok(a.indexTerms('a JSON Web Token').includes(a.queryTerms('jwt')[0]!));
  assert.ok(a.indexTerms('uses jwt').some((t) => a.queryTerms('json web token').includes(t)));
  assert.ok(!new Analyzer({ synonyms: false }).indexTerms('k8s').includes(kube[0]!));
});
