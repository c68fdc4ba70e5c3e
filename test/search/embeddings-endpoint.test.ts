// An OpenAI-compatible endpoint that misbehaves: the registry must ask it a bounded number of times (back
// off on every failure, never re-request in a loop), read at most a bounded answer, and refuse vectors of
// the wrong length or with values that are not finite numbers. Each server counts the requests it gets.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { OpenAIEmbeddings } from '../../src/search/embeddings/openai.js';
import { WorkerEmbeddings } from '../../src/search/embeddings/worker.js';
import { RegistrySearch } from '../../src/search/registry-search.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { contributeUnit, register, testApp } from '../helpers/app.js';

type Handler = (input: string[], res: ServerResponse, call: number) => void;

async function endpoint(handler: Handler) {
  let calls = 0;
  let bytesSent = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      calls++;
      const wrap = res.write.bind(res);
      res.write = ((chunk: Buffer | string, ...rest: never[]) => {
        bytesSent += Buffer.byteLength(chunk);
        return wrap(chunk, ...rest);
      }) as typeof res.write;
      handler((JSON.parse(body) as { input: string[] }).input, res, calls);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get calls() {
      return calls;
    },
    get bytesSent() {
      return bytesSent;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

const answer = (res: ServerResponse, vectors: unknown[]) =>
  res
    .writeHead(200, { 'content-type': 'application/json' })
    .end(JSON.stringify({ data: vectors.map((embedding, index) => ({ index, embedding })) }));

/** A store with one unit, and a search index over it that embeds with the endpoint. */
async function indexWith(url: string, dimensions?: number) {
  const t = await testApp(openSqliteStore('sqlite::memory:'));
  const key = await register(t.app, 'alice');
  await contributeUnit(t.app, key, { title: 'Kubernetes operators reconcile state' });
  const search = new RegistrySearch(t.store, {
    embeddings: { kind: 'openai', url, model: 'm', ...(dimensions ? { dimensions } : {}) },
  });
  search.start();
  await search.ready;
  return {
    search,
    close: async () => {
      await search.close();
      await t.close();
    },
  };
}

test('without a configured length, the first answer sets it: the unit is embedded with a few requests, not thousands', async () => {
  const ep = await endpoint((input, res) =>
    answer(
      res,
      input.map((t) => [t.length, 1, 2]),
    ),
  );
  const ix = await indexWith(ep.url);
  try {
    await sleep(1_500);
    assert.ok(ep.calls <= 4, `${ep.calls} requests in 1.5 s`);
    const status = await ix.search.status();
    assert.equal(status.pending, 0, 'every item has its vector');
  } finally {
    await ix.close();
    await ep.close();
  }
});

test('an endpoint whose vectors change length is refused and asked again only after a growing wait', async () => {
  const ep = await endpoint((input, res, call) =>
    answer(
      res,
      input.map(() => new Array(3 + (call % 5)).fill(1)),
    ),
  );
  const ix = await indexWith(ep.url);
  try {
    await sleep(1_500);
    assert.ok(ep.calls <= 3, `${ep.calls} requests in 1.5 s`);
    assert.equal((await ix.search.status()).pending, 1, 'the unit has no vector');
  } finally {
    await ix.close();
    await ep.close();
  }
});

test('an endpoint that fails a while is retried with growing waits, and the unit is embedded once it answers', async () => {
  const ep = await endpoint((input, res, call) =>
    call <= 2
      ? res.writeHead(500).end('busy')
      : answer(
          res,
          input.map(() => [1, 2, 3]),
        ),
  );
  const ix = await indexWith(ep.url, 3);
  try {
    let status = await ix.search.status();
    for (let waited = 0; status.pending > 0 && waited < 6_000; waited += 100) {
      await sleep(100);
      status = await ix.search.status();
    }
    assert.equal(status.pending, 0, 'embedded after the outage');
    assert.ok(ep.calls <= 5, `${ep.calls} requests`);
  } finally {
    await ix.close();
    await ep.close();
  }
});

test('queries back off after a failure: a search does not ask a failing endpoint each time', async () => {
  const ep = await endpoint((_input, res) => res.writeHead(500).end());
  const w = new WorkerEmbeddings({ kind: 'openai', url: ep.url, model: 'm', dimensions: 3 });
  try {
    for (let i = 0; i < 30; i++) assert.equal(await w.embedQueryWithin(`query ${i}`, 5_000), null);
    assert.ok(ep.calls <= 2, `${ep.calls} requests for 30 queries`);
  } finally {
    await w.close();
    await ep.close();
  }
});

test('an answer beyond the byte bound is aborted, not read whole', async () => {
  const ep = await endpoint((_input, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = 2_048; // 128 MiB
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        left--;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    res.on('close', () => (left = 0));
    pump();
  });
  try {
    const p = new OpenAIEmbeddings({ url: ep.url, model: 'm', maxResponseBytes: 1024 * 1024 });
    await assert.rejects(p.embed(['x']), /more than 1048576 bytes/);
    await sleep(100);
    assert.ok(ep.bytesSent < 32 * 1024 * 1024, `${ep.bytesSent} bytes sent`);
  } finally {
    await ep.close();
  }
});

test('values that are not finite numbers, wrong lengths, missing or repeated indexes are refused', async () => {
  // Raw JSON: 1e999 parses to Infinity, 1e39 overflows float32.
  const bodies: string[] = [
    '{"data":[{"index":0,"embedding":[1,1e999,0]}]}',
    '{"data":[{"index":0,"embedding":[1,1e39,0]}]}',
    JSON.stringify({ data: [{ index: 0, embedding: [1, null, 0] }] }),
    JSON.stringify({ data: [{ index: 0, embedding: [1, '2', 0] }] }),
    JSON.stringify({ data: [{ index: 0, embedding: [] }] }),
    JSON.stringify({
      data: [
        { index: 0, embedding: [1, 2, 3] },
        { index: 0, embedding: [1, 2, 3] },
      ],
    }),
    JSON.stringify({ data: [{ index: 7, embedding: [1, 2, 3] }] }),
    JSON.stringify({ data: 'nope' }),
  ];
  const ep = await endpoint((_input, res, call) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(bodies[(call - 1) % bodies.length]),
  );
  try {
    for (const body of bodies)
      await assert.rejects(new OpenAIEmbeddings({ url: ep.url, model: 'm' }).embed(['x']), Error, body);
    const fixed = new OpenAIEmbeddings({ url: ep.url, model: 'm', dimensions: 4 });
    await assert.rejects(fixed.embed(['x']), /expected 4/);
  } finally {
    await ep.close();
  }
});
