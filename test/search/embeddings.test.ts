import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAIEmbeddings } from '../../src/search/embeddings/openai.js';
import { BuiltinEmbeddings } from '../../src/search/embeddings/builtin.js';
import { WorkerEmbeddings } from '../../src/search/embeddings/worker.js';
import { loadConfig } from '../../src/config/index.js';

const providerSpecFromEnv = (env: Record<string, string>) => loadConfig(env).embeddings;

/** A loopback OpenAI-compatible endpoint: the vector of a text is [length, vowels, 1]. */
async function fakeEndpoint() {
  const seen: Array<{ model: string; input: string[]; auth: string | undefined }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { model, input } = JSON.parse(body) as { model: string; input: string[] };
      seen.push({ model, input, auth: req.headers.authorization });
      if (req.url !== '/v1/embeddings') {
        res.writeHead(404).end();
        return;
      }
      const data = input
        .map((t, index) => ({ index, embedding: [t.length, (t.match(/[aeiou]/g) ?? []).length, 1] }))
        .reverse();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((r) => server.close(r)),
  };
}

test('openai provider posts {model, input} to /v1/embeddings and returns unit vectors in input order', async () => {
  const ep = await fakeEndpoint();
  try {
    const p = new OpenAIEmbeddings({ url: `${ep.url}/v1`, model: 'm1', apiKey: 'k', batchSize: 2 });
    const vs = await p.embed(['abc', 'aeiou', 'zz']);
    assert.equal(vs.length, 3);
    assert.equal(p.dimensions, 3);
    for (const v of vs) assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-6);
    assert.ok(vs[1]![1]! > vs[0]![1]!);
    assert.deepEqual(
      ep.seen.map((s) => s.input),
      [['abc', 'aeiou'], ['zz']],
    );
    assert.equal(ep.seen[0]!.auth, 'Bearer k');
    assert.equal(ep.seen[0]!.model, 'm1');
  } finally {
    await ep.close();
  }
});

test('the worker runs a provider off the main thread, queries cached', async () => {
  const ep = await fakeEndpoint();
  const w = new WorkerEmbeddings({ kind: 'openai', url: ep.url, model: 'm2' }, { itemSlice: 1 });
  try {
    const items = await w.embed(['one', 'two', 'three']);
    assert.equal(items.length, 3);
    const q1 = await w.embedQuery('hello');
    const calls = ep.seen.length;
    const q2 = await w.embedQuery('hello');
    assert.deepEqual(q1, q2);
    assert.equal(ep.seen.length, calls);
  } finally {
    await w.close();
    await ep.close();
  }
});

test('REG_EMBEDDINGS chooses the provider', () => {
  assert.deepEqual(providerSpecFromEnv({}), { kind: 'none' }, 'off unless chosen');
  assert.deepEqual(providerSpecFromEnv({ REG_EMBEDDINGS: 'builtin' }), { kind: 'builtin' });
  assert.deepEqual(providerSpecFromEnv({ REG_EMBEDDINGS: 'none' }), { kind: 'none' });
  assert.deepEqual(
    providerSpecFromEnv({ REG_EMBEDDINGS: 'openai', REG_EMBEDDINGS_URL: 'http://x', REG_EMBEDDINGS_MODEL: 'm' }),
    { kind: 'openai', url: 'http://x', model: 'm' },
  );
  assert.throws(() => providerSpecFromEnv({ REG_EMBEDDINGS: 'openai' }));
  assert.throws(() => providerSpecFromEnv({ REG_EMBEDDINGS: 'bogus' }));
  const openai = { REG_EMBEDDINGS: 'openai', REG_EMBEDDINGS_URL: 'http://x', REG_EMBEDDINGS_MODEL: 'm' };
  assert.equal(
    (providerSpecFromEnv({ ...openai, REG_EMBEDDINGS_DIMENSIONS: '768' }) as { dimensions?: number }).dimensions,
    768,
  );
  for (const bad of ['0', '-3', '1.5', 'abc', '100000'])
    assert.throws(
      () => providerSpecFromEnv({ ...openai, REG_EMBEDDINGS_DIMENSIONS: bad }),
      /REG_EMBEDDINGS_DIMENSIONS/,
    );
});

test('the built-in model loads from node_modules and puts related texts closer', async () => {
  const p = new BuiltinEmbeddings();
  const [a, b, c] = await p.embed([
    'deploy a web app to kubernetes',
    'ship my service to a k8s cluster',
    'bake a chocolate cake',
  ]);
  assert.equal(a!.length, 512);
  const dot = (x: Float32Array, y: Float32Array) => x.reduce((s, v, i) => s + v * y[i]!, 0);
  assert.ok(dot(a!, b!) > dot(a!, c!));
});
