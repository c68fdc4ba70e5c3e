// The search lab: indexes the search-eval corpus in-process with src/search and asks every dev query, as
// run.mjs defines a hit (the wanted doc, or any corpus skill with the same normalized name), reporting
// MRR@10, success@1/3/10, empty answers and latency for keyword and task queries, on two fixed halves of
// the queries (by a hash of the wanted doc) and on all of them.
//
//   npx tsx bench/search-lab.ts [--split a|b|all] [--embeddings none|use] [--eval-dir DIR]
//       [--config '{"k1":1.2}'] [--sweep '[{"label":"x", ...overrides}, ...]'] [--limit N] [--json out.json]
//       [--detail] [--depth] [--misses] [--exhaustive true|false] [--check-pruning] [--floor-check]
//       [--embed-body-chars 300] [--embed-max-chars 600] [--ann '{"quantization":"f32"}'] [--ivf lists,probes]
//       [--cooccurrence ['{...}']] [--query-embed-latency]
//
// --config: overrides of SearchConfig (src/search/hybrid.ts) for every run; --sweep: one run per entry,
// each entry's overrides on top of --config, starting from the defaults (entries that change analyzer,
// bodyWords or bodyProseOnly build their own index). --detail: per half and kind, MRR@10, success@1/3/10,
// empty answers, latency. --check-pruning: block-max MaxScore vs exhaustive top-10 on every query.
// --floor-check: the best similarity of off-topic queries and of dev queries to their wanted skill.
// --embeddings use: item vectors from the lab's disk cache (bench/search-lab/embed.ts fills it, for the
// same --embed-body-chars / --embed-max-chars); --ann / --ivf: an approximate vector index, with its
// recall@50 against the exact one. Latency is in-process search time (no query embedding; see
// bench/search-lab/latency.ts for the end-to-end figure).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findEvalDir, loadCorpus, loadQueries, type LabCorpus, type LabQuery } from './search-lab/corpus.js';
import { EmbeddingCache } from './search-lab/embed-cache.js';
import { BUILTIN_ID, BuiltinEmbeddings } from '../src/search/embeddings/builtin.js';
import { embeddingText } from '../src/search/document.js';
import { SearchEngine } from '../src/search/engine.js';
import { configFor, type SearchConfig } from '../src/search/hybrid.js';
import { ExactVectorIndex, type VectorIndex } from '../src/search/vectors.js';
import { IvfVectorIndex } from './search-lab/ivf.js';
import { CooccurrenceModel } from './search-lab/cooccurrence.js';
import { addAssociates, expandByFeedback, NO_EXPANSION, type ExpansionConfig } from './search-lab/expansion.js';
import { UsearchVectorIndex } from '../src/search/vectors-usearch.js';

const argv = process.argv.slice(2);
const arg = (name: string, dflt?: string): string | undefined => {
  const i = argv.indexOf(`--${name}`);
  if (i < 0) return dflt;
  const v = argv[i + 1];
  return v === undefined || v.startsWith('--') ? 'true' : v;
};
const evalDir = findEvalDir(arg('eval-dir'));
const split = (arg('split', 'all') ?? 'all') as 'a' | 'b' | 'all';
const embeddings = arg('embeddings', 'none')!;
const K = 10;
type LabOverrides = Partial<SearchConfig> & Partial<ExpansionConfig>;
const baseOverrides = JSON.parse(arg('config', '{}')!) as LabOverrides;
const sweep = JSON.parse(arg('sweep', '[{}]')!) as Array<LabOverrides & { label?: string }>;
const providerId = embeddings === 'use' ? BUILTIN_ID : 'none';
/** Off-topic queries (nothing a skill registry holds), written for the lab, not taken from any query set. */
const OFF_TOPIC = [
  'chocolate cake with raspberry filling',
  'medieval french poetry about love',
  'best hiking trails in patagonia',
  'how to train a puppy to sit',
  'symptoms of the common cold',
  'history of the roman empire',
  'knitting a wool scarf pattern',
  'who won the 1998 world cup',
  'growing tomatoes on a balcony',
  'baroque violin sonatas',
  'xyzzy plugh frobnicate',
  'qwertyuiop asdfghjkl',
];

interface Row {
  q: LabQuery;
  kind: 'keyword' | 'task';
  rank: number;
  empty: boolean;
  ms: number;
  top: string[];
}

function summarize(rows: Row[]) {
  const n = rows.length || 1;
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  const pct = (p: number) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? NaN;
  return {
    n: rows.length,
    mrr: rows.reduce((a, r) => a + (r.rank > 0 ? 1 / r.rank : 0), 0) / n,
    s1: rows.filter((r) => r.rank === 1).length / n,
    s3: rows.filter((r) => r.rank > 0 && r.rank <= 3).length / n,
    s10: rows.filter((r) => r.rank > 0 && r.rank <= K).length / n,
    empty: rows.filter((r) => r.empty).length,
    p50: pct(0.5),
    p99: pct(0.99),
    max: ms[ms.length - 1] ?? NaN,
  };
}

async function main() {
  const t0 = performance.now();
  const corpus: LabCorpus = await loadCorpus(join(evalDir, 'corpus.jsonl.gz'), Number(arg('limit', 'Infinity')));
  const queries = loadQueries(join(evalDir, 'dev-queries.jsonl')).filter((q) => split === 'all' || q.half === split);
  console.log(
    `corpus: ${corpus.skills.length} skills kept, ${corpus.refused} refused (no frontmatter name/description); ${queries.length} queries (${split}); loaded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  let itemVectors: Float32Array[] | null = null;
  let queryVectors: Map<string, Float32Array> | null = null;
  if (embeddings === 'use') {
    const cache = new EmbeddingCache(BUILTIN_ID, 512);
    const base = configFor(providerId, baseOverrides);
    void base;
    const texts = corpus.skills.map((s) =>
      embeddingText(s, Number(arg('embed-body-chars', '0')), Number(arg('embed-max-chars', '600'))),
    );
    const missing = texts.filter((t) => !cache.get(t)).length;
    if (missing > 0) throw new Error(`${missing} item embeddings are not cached: run bench/search-lab/embed.ts first`);
    itemVectors = texts.map((t) => cache.get(t)!);
    const qtexts = queries.flatMap((q) => [q.keyword, q.task]);
    await cache.embedAll(new BuiltinEmbeddings(), [...qtexts, ...OFF_TOPIC]);
    queryVectors = new Map([...qtexts, ...OFF_TOPIC].map((t) => [t, cache.get(t)!]));
  }
  if (arg('query-embed-latency') === 'true') {
    const p = new BuiltinEmbeddings(1);
    await p.embed(['warm up']);
    const ms: number[] = [];
    for (const q of queries.flatMap((x) => [x.keyword, x.task])) {
      const t = performance.now();
      await p.embed([q]);
      ms.push(performance.now() - t);
    }
    ms.sort((a, b) => a - b);
    console.log(
      `query embedding (USE-lite, cold cache, one core): p50 ${ms[ms.length >> 1]!.toFixed(1)} ms, p99 ${ms[Math.floor(ms.length * 0.99)]!.toFixed(1)} ms, max ${ms[ms.length - 1]!.toFixed(1)} ms`,
    );
  }

  if (arg('floor-check') === 'true' && itemVectors && queryVectors) {
    const p = new BuiltinEmbeddings();
    const ov = await p.embed(OFF_TOPIC);
    const exact = new ExactVectorIndex(512);
    itemVectors.forEach((v, i) => exact.upsert(i, v));
    console.log('\nSimilarity floor check (max cosine to any item):');
    OFF_TOPIC.forEach((q, i) => {
      const top = exact.search(ov[i]!, 3);
      console.log(
        `  off-topic "${q}": ${top.map((h) => `${h.score.toFixed(3)} ${corpus.skills[h.key]!.name}`).join(' | ')}`,
      );
    });
    const wantedSims: number[] = [];
    for (const q of queries) {
      const i = corpus.skills.findIndex((s) => s.doc === q.doc);
      for (const kind of ['keyword', 'task'] as const)
        wantedSims.push(exact.similarity(i, queryVectors.get(q[kind])!)!);
    }
    wantedSims.sort((a, b) => a - b);
    const f = (x: number) => wantedSims[Math.floor(x * (wantedSims.length - 1))]!.toFixed(3);
    console.log(`  dev queries → wanted skill cosine: min ${f(0)}, p10 ${f(0.1)}, p50 ${f(0.5)}, p90 ${f(0.9)}`);
  }

  const engines = new Map<string, SearchEngine>();
  const out: unknown[] = [];
  console.log(
    '\n| run | kw MRR A | kw MRR B | kw MRR all | task MRR A | task MRR B | task MRR all | kw s@10 | task s@10 | kw empty | task empty | off-topic answered | p50 ms | p99 ms | max ms |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  let cooccurrence: CooccurrenceModel | null = null;
  for (const variant of sweep) {
    const { label, ...ov } = variant;
    const { expansion, prf, ...overrides }: LabOverrides = { ...baseOverrides, ...ov };
    const cfg = configFor(providerId, overrides);
    const lab: ExpansionConfig = {
      expansion: { ...NO_EXPANSION.expansion, ...expansion },
      prf: { ...NO_EXPANSION.prf, ...prf },
    };
    // An engine's configuration is fixed when it is made: a new configuration gets an engine of its own.
    const indexKey = JSON.stringify(cfg);
    let engine = engines.get(indexKey);
    if (!engine) {
      const t1 = performance.now();
      const ivf = arg('ivf');
      const ann = arg('ann');
      const vectorIndex: VectorIndex | undefined = !itemVectors
        ? undefined
        : ivf
          ? new IvfVectorIndex(512, { lists: Number(ivf.split(',')[0]), probes: Number(ivf.split(',')[1]) })
          : ann
            ? new UsearchVectorIndex(512, JSON.parse(ann === 'true' ? '{}' : ann))
            : undefined;
      engine = new SearchEngine(overrides, {
        providerId,
        dimensions: itemVectors ? 512 : 0,
        ...(vectorIndex ? { vectorIndex } : {}),
      });
      corpus.skills.forEach((s, i) =>
        engine!.upsert(
          { key: i, name: s.name, description: s.description, tags: s.tags, domain: s.domain, body: s.body },
          itemVectors?.[i],
        ),
      );
      if (vectorIndex && queryVectors) {
        const t3 = performance.now();
        if (vectorIndex instanceof IvfVectorIndex) vectorIndex.train();
        const trainS = (performance.now() - t3) / 1000;
        const exact = new ExactVectorIndex(512);
        itemVectors!.forEach((v, i) => exact.upsert(i, v));
        let found = 0;
        let total = 0;
        const ms: number[] = [];
        const msExact: number[] = [];
        for (const qv of queryVectors.values()) {
          let t = performance.now();
          const approx = new Set(vectorIndex.search(qv, 50).map((h) => h.key));
          ms.push(performance.now() - t);
          t = performance.now();
          const truth = exact.search(qv, 50);
          msExact.push(performance.now() - t);
          total += truth.length;
          found += truth.filter((h) => approx.has(h.key)).length;
        }
        const p = (xs: number[], q: number) => xs.sort((a, b) => a - b)[Math.floor(q * xs.length)]!.toFixed(2);
        console.error(
          `  ${ivf ? `IVF ${ivf}` : `usearch ${ann}`}: trained in ${trainS.toFixed(1)} s; recall@50 ${(found / total).toFixed(3)}; search p50 ${p(ms, 0.5)} p99 ${p(ms, 0.99)} ms vs exact p50 ${p(msExact, 0.5)} p99 ${p(msExact, 0.99)} ms`,
        );
      }
      const mem = engine.memoryBytes();
      console.error(
        `  index built in ${((performance.now() - t1) / 1000).toFixed(1)} s: ${engine.size} items, ${engine.lexical.vocabularySize} terms, lexical ~${(mem.lexical / 2 ** 20).toFixed(0)} MiB, vectors ${(mem.vectors / 2 ** 20).toFixed(0)} MiB, heap ${(process.memoryUsage().heapUsed / 2 ** 20).toFixed(0)} MiB`,
      );
      if (arg('cooccurrence') !== undefined) {
        const t2 = performance.now();
        const m = (cooccurrence = CooccurrenceModel.build(
          engine.lexical,
          JSON.parse(arg('cooccurrence') === 'true' ? '{}' : arg('cooccurrence')!),
        ));
        console.error(
          `  co-occurrence model: ${m.terms} terms with associates, built in ${((performance.now() - t2) / 1000).toFixed(1)} s`,
        );
      }
      engines.clear();
      engines.set(indexKey, engine);
    }
    const current = engine;
    const model = cooccurrence;
    current.rewriteQuery = (terms, filter) => {
      let q = terms;
      if (lab.expansion.enabled && model) q = addAssociates(model, q, lab.expansion);
      if (lab.prf.enabled && terms.length >= lab.prf.minTerms) {
        q = expandByFeedback(
          current.lexical,
          q,
          lab.prf,
          (key) => [...(current.item(key)?.nameTerms ?? []), ...(current.item(key)?.descSet ?? [])],
          filter,
        );
      }
      return q;
    };
    const rows: Row[] = [];
    let pruningDiffs = 0;
    for (const q of queries) {
      const wanted = new Set([q.doc, ...(corpus.nameDocs.get(corpus.docName.get(q.doc) ?? '') ?? [])]);
      for (const kind of ['keyword', 'task'] as const) {
        const text = q[kind];
        const t = performance.now();
        const mode = arg('exhaustive');
        const res = engine.search(text, {
          limit: K,
          queryVector: queryVectors?.get(text),
          exhaustive: mode === undefined ? undefined : mode === 'true',
        });
        const ms = performance.now() - t;
        if (arg('check-pruning') === 'true') {
          const ref = engine.search(text, { limit: K, queryVector: queryVectors?.get(text), exhaustive: true });
          const pruned = engine.search(text, { limit: K, queryVector: queryVectors?.get(text), exhaustive: false });
          if (JSON.stringify(ref.hits.map((h) => h.key)) !== JSON.stringify(pruned.hits.map((h) => h.key)))
            pruningDiffs++;
        }
        const docs = res.hits.map((h) => corpus.skills[h.key]!.doc);
        const rank = docs.findIndex((d) => wanted.has(d)) + 1;
        rows.push({ q, kind, rank, empty: res.hits.length === 0, ms, top: docs });
      }
    }
    const offTopicHits = OFF_TOPIC.filter(
      (t) => engine!.search(t, { limit: K, queryVector: queryVectors?.get(t) }).hits.length > 0,
    ).length;
    const part = (kind: string, half?: string) =>
      summarize(rows.filter((r) => r.kind === kind && (!half || r.q.half === half)));
    const kw = part('keyword');
    const tk = part('task');
    const f = (x: number) => x.toFixed(3);
    const all = summarize(rows);
    console.log(
      `| ${label ?? JSON.stringify(ov)} | ${f(part('keyword', 'a').mrr)} | ${f(part('keyword', 'b').mrr)} | ${f(kw.mrr)} | ${f(part('task', 'a').mrr)} | ${f(part('task', 'b').mrr)} | ${f(tk.mrr)} | ${f(kw.s10)} | ${f(tk.s10)} | ${kw.empty} | ${tk.empty} | ${offTopicHits}/${OFF_TOPIC.length} | ${all.p50.toFixed(2)} | ${all.p99.toFixed(2)} | ${all.max.toFixed(1)} |`,
    );
    if (arg('detail') === 'true') {
      console.log(
        `\n  ${label ?? ''}\n\n| half | queries | n | MRR@10 | success@1 | @3 | @10 | empty | p50 ms | p99 ms | max ms |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|`,
      );
      for (const half of ['a', 'b', undefined]) {
        for (const kind of ['keyword', 'task']) {
          const x = part(kind, half);
          console.log(
            `| ${half ?? 'all'} | ${kind} | ${x.n} | ${f(x.mrr)} | ${f(x.s1)} | ${f(x.s3)} | ${f(x.s10)} | ${x.empty} | ${x.p50.toFixed(2)} | ${x.p99.toFixed(2)} | ${x.max.toFixed(1)} |`,
          );
        }
      }
      console.log('');
    }
    if (arg('depth') === 'true') {
      // Where the wanted skill is when the page is 200 long: a ranking problem or a matching problem?
      const ranks: Record<string, number[]> = { keyword: [], task: [] };
      for (const q of queries) {
        const wanted = new Set([q.doc, ...(corpus.nameDocs.get(corpus.docName.get(q.doc) ?? '') ?? [])]);
        for (const kind of ['keyword', 'task'] as const) {
          const res = engine.search(q[kind], { limit: 200, queryVector: queryVectors?.get(q[kind]) });
          ranks[kind]!.push(res.hits.findIndex((h) => wanted.has(corpus.skills[h.key]!.doc)) + 1);
        }
      }
      for (const kind of ['keyword', 'task']) {
        const r = ranks[kind]!;
        const at = (n: number) => (r.filter((x) => x > 0 && x <= n).length / r.length).toFixed(3);
        console.log(
          `  ${kind}: success@1 ${at(1)}, @3 ${at(3)}, @10 ${at(10)}, @50 ${at(50)}, @200 ${at(200)}; not in the top 200: ${r.filter((x) => x === 0).length}`,
        );
      }
    }
    if (arg('check-pruning') === 'true')
      console.log(`  pruned top-${K} differs from exhaustive for ${pruningDiffs} of ${rows.length} queries`);
    if (arg('misses') === 'true') {
      for (const r of rows.filter((x) => x.rank !== 1)) {
        const s = corpus.skills.find((x) => x.doc === r.q.doc)!;
        console.log(
          `  miss(${r.rank}) ${r.kind} [${r.q.doc} ${s.name}] "${r.q[r.kind]}" → ${r.top
            .slice(0, 3)
            .map((d) => corpus.skills.find((x) => x.doc === d)!.name)
            .join(', ')}`,
        );
      }
    }
    out.push({
      label,
      overrides,
      keyword: kw,
      task: tk,
      halves: {
        a: { keyword: part('keyword', 'a'), task: part('task', 'a') },
        b: { keyword: part('keyword', 'b'), task: part('task', 'b') },
      },
      rows: rows.map((r) => ({ doc: r.q.doc, kind: r.kind, rank: r.rank, ms: r.ms })),
    });
  }
  const json = arg('json');
  if (json) writeFileSync(json, JSON.stringify(out, null, 1));
}

await main();
