// A deterministic synthetic corpus: English-like text over a few thousand words with Zipf-like
// frequencies, about 20 domains with topical words of their own, and units and skills in the shapes the
// service stores (scores computed by the service's own domain functions). Item i is derived from
// (seed, i) alone, so any item can be regenerated without generating the ones before it.
import { generateApiKey } from '../src/domain/keys.js';
import { UNIT_TYPES, type KnowledgeUnit, type KnowledgeUnitInput, type Visibility } from '../src/domain/model.js';
import { skillQuality, unitBaseQuality, unitQuality } from '../src/domain/quality.js';
import { sha256Digest, versionDigest } from '../src/domain/bundles.js';
import { REWARD_MILLIS } from '../src/domain/reputation.js';
import { hostFrontmatter, parseSkillMd } from '../src/domain/skill-md.js';
import { FIRST_VERSION, versionSortKey } from '../src/domain/versions.js';
import type { SkillPlan } from '../src/store/store.js';

/** Bump when generation changes, so that a kept corpus database is not mistaken for the new one. */
export const CORPUS_VERSION = 2;
export const DEFAULT_SEED = 20_251_122;

// ---- randomness -----------------------------------------------------------------------------------

/** A 32-bit integer hash of several integers (murmur3's finaliser over a running mix). */
export function hash32(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    h = Math.imul(h ^ (part >>> 0), 0x85ebca6b);
    h = (h ^ (h >>> 13)) >>> 0;
    h = Math.imul(h, 0xc2b2ae35);
    h = (h ^ (h >>> 16)) >>> 0;
  }
  return h >>> 0;
}

export type Rng = () => number;

/** mulberry32: small, fast, good enough for text; floats in [0, 1). */
export function rngFrom(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const int = (rng: Rng, min: number, max: number) => min + Math.floor(rng() * (max - min + 1));
const pick = <T>(rng: Rng, list: readonly T[]): T => list[Math.floor(rng() * list.length)]!;

/** Index into cumulative weights (binary search). */
function sampleCdf(cdf: Float64Array, rng: Rng): number {
  const x = rng() * cdf[cdf.length - 1]!;
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function cdfOf(weights: number[]): Float64Array {
  const cdf = new Float64Array(weights.length);
  let sum = 0;
  weights.forEach((w, i) => {
    sum += w;
    cdf[i] = sum;
  });
  return cdf;
}

// ---- vocabulary -----------------------------------------------------------------------------------

// Content words, most frequent first: real technical and general English (none is a PostgreSQL
// English stop word, so queries mean the same on both backends), then generated words.
const REAL_WORDS = `
request value system data service time error cache query index state client server method update result
change default config build file user version value process memory network model test check order table
field event source release limit format module record option stream access token session schema layer
thread queue worker batch route handler signal timeout retry policy metric trace alert deploy cluster node
container image volume secret key header payload response message buffer socket port host domain path
string number array object map list set tree graph hash lock mutex channel future promise callback loop
branch merge commit review patch issue ticket feature flag rollout rollback migration backup restore replica
shard partition leader follower vote quorum snapshot log journal page block disk storage bucket region zone
latency throughput load traffic budget quota price cost invoice account customer order payment refund
ledger balance transfer audit report dashboard chart panel widget layout style theme color font icon button
input output parser lexer token grammar compiler linker binary library package registry mirror proxy gateway
router balancer firewall certificate cipher digest signature identity role permission scope grant tenant
project team owner reviewer editor admin operator engineer analyst model feature vector tensor gradient
weight bias layer epoch sample label dataset pipeline stage job task step runner agent plan goal prompt
context window embedding score rank filter sort search match pattern rule guard invariant contract spec
document note summary detail example case scenario fixture mock stub fake spy assertion coverage fuzz bench
profile heap stack frame pointer reference address offset length width height depth size count total average
median peak floor ceiling bound range interval window period schedule cron calendar clock timer deadline
lease ticket backlog sprint milestone roadmap release candidate build artifact bundle chunk asset script
shell terminal command argument flag variable constant function class interface struct enum trait generic
closure iterator generator coroutine actor fiber kernel driver device sensor firmware board circuit power
battery network packet frame route hop tunnel bridge switch link cable antenna signal noise filter codec
audio video stream frame pixel shader texture mesh vertex camera scene sprite physics collision engine
`
  .split(/\s+/)
  .filter(Boolean);

const ONSETS = [
  'b',
  'br',
  'c',
  'cl',
  'cr',
  'd',
  'dr',
  'f',
  'fl',
  'g',
  'gl',
  'gr',
  'h',
  'j',
  'k',
  'l',
  'm',
  'n',
  'p',
  'pl',
  'pr',
  'qu',
  'r',
  's',
  'sc',
  'sh',
  'sl',
  'sp',
  'st',
  't',
  'th',
  'tr',
  'v',
  'w',
  'z',
];
const VOWELS = ['a', 'e', 'i', 'o', 'u', 'a', 'e', 'o', 'ai', 'ea', 'io', 'ou', 'y'];
const CODAS = ['', '', '', 'n', 'r', 'l', 's', 't', 'm', 'nd', 'rt', 'st', 'x', 'ck', 'ng', 'lk'];

export const VOCABULARY_SIZE = 4_000;
const ZIPF_EXPONENT = 1.0;
/** The most frequent words, which typical queries leave out. */
export const COMMON_WORDS = 50;

// Short, frequent glue between content words; never used as query terms.
const FUNCTION_WORDS =
  'the a of to in and for with is on that by when this it as be or from at an are can not each into its before after without'.split(
    ' ',
  );

export const DOMAINS = [
  'web-development',
  'databases',
  'devops',
  'security',
  'machine-learning',
  'data-engineering',
  'mobile',
  'networking',
  'cloud-infrastructure',
  'testing',
  'frontend',
  'backend-apis',
  'observability',
  'distributed-systems',
  'compilers',
  'embedded',
  'game-development',
  'scientific-computing',
  'finance',
  'documentation',
] as const;

const LICENSES = ['MIT', 'Apache-2.0', 'BSD-3-Clause'];
const PLAIN_SOURCES = [
  'team runbook',
  'incident review',
  'code review notes',
  'production experience',
  'pairing session',
  'internal wiki',
];

// Streams: each kind of item has its own, so adding items of one kind never changes another.
const STREAM = { vocabulary: 1, domains: 2, unit: 3, skill: 4, input: 5, key: 6, id: 7, query: 8 } as const;

export interface Corpus {
  seed: number;
  /** Content words, most frequent first. */
  words: readonly string[];
  /** Topical words of each domain, by domain index. */
  domainWords: readonly (readonly string[])[];
}

function buildVocabulary(seed: number): string[] {
  const rng = rngFrom(hash32(seed, STREAM.vocabulary));
  const seen = new Set<string>();
  const words: string[] = [];
  for (const w of REAL_WORDS) {
    if (seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  // Real words keep the top ranks (shuffled); generated words fill the long tail.
  for (let i = words.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [words[i], words[j]] = [words[j]!, words[i]!];
  }
  while (words.length < VOCABULARY_SIZE) {
    let w = '';
    const syllables = int(rng, 2, 3);
    for (let s = 0; s < syllables; s++)
      w += pick(rng, ONSETS) + pick(rng, VOWELS) + (s === syllables - 1 ? pick(rng, CODAS) : '');
    if (w.length < 4 || w.length > 12 || seen.has(w)) continue;
    seen.add(w);
    words.push(w);
  }
  return words;
}

const corpora = new Map<number, Corpus & { cdf: Float64Array; domainCdf: Float64Array }>();

function corpusInternal(seed: number) {
  let c = corpora.get(seed);
  if (!c) {
    const words = buildVocabulary(seed);
    const rng = rngFrom(hash32(seed, STREAM.domains));
    // Topical words: 40 per domain, from the middle of the frequency range, so domains read differently.
    const domainWords = DOMAINS.map(() => {
      const chosen = new Set<string>();
      while (chosen.size < 40) chosen.add(words[int(rng, 60, 1_500)]!);
      return [...chosen];
    });
    const cdf = cdfOf(words.map((_, rank) => 1 / (rank + 1) ** ZIPF_EXPONENT));
    // Domains are mildly skewed: the largest holds about three times as many units as the smallest.
    const domainCdf = cdfOf(DOMAINS.map((_, i) => 1 / Math.sqrt(i + 1)));
    c = { seed, words, domainWords, cdf, domainCdf };
    corpora.set(seed, c);
  }
  return c;
}

export function corpus(seed = DEFAULT_SEED): Corpus {
  return corpusInternal(seed);
}

// ---- text -----------------------------------------------------------------------------------------

type C = ReturnType<typeof corpusInternal>;

const zipfWord = (c: C, rng: Rng) => c.words[sampleCdf(c.cdf, rng)]!;

function sentence(c: C, rng: Rng, domain: number, min: number, max: number): string {
  const n = int(rng, min, max);
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rng();
    if (r < 0.3 && i > 0 && i < n - 1) tokens.push(pick(rng, FUNCTION_WORDS));
    else if (r < 0.42) tokens.push(pick(rng, c.domainWords[domain]!));
    else tokens.push(zipfWord(c, rng));
  }
  const text = tokens.join(' ');
  return text[0]!.toUpperCase() + text.slice(1) + '.';
}

function title(c: C, rng: Rng, domain: number): string {
  const words: string[] = [];
  const n = int(rng, 3, 8);
  for (let i = 0; i < n; i++) words.push(rng() < 0.35 ? pick(rng, c.domainWords[domain]!) : zipfWord(c, rng));
  return words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
}

function camel(a: string, b: string): string {
  return a + b[0]!.toUpperCase() + b.slice(1);
}

function example(c: C, rng: Rng, domain: number): string {
  if (rng() < 0.4) {
    const call = `${zipfWord(c, rng)}.${camel(zipfWord(c, rng), zipfWord(c, rng))}(${zipfWord(c, rng)}, ${int(rng, 1, 500)})`;
    return `\`${call}\` ${sentence(c, rng, domain, 5, 12).toLowerCase()}`;
  }
  return sentence(c, rng, domain, 8, 20);
}

function distinctDomainWords(c: C, rng: Rng, domain: number, n: number): string[] {
  const out = new Set<string>();
  for (let tries = 0; out.size < n && tries < n * 4; tries++) out.add(pick(rng, c.domainWords[domain]!));
  return [...out];
}

// ---- units ----------------------------------------------------------------------------------------

/** The body a client would POST: item i of a stream (0: the loaded corpus, others: new contributions). */
export function unitInput(c: Corpus, i: number, stream = 0): KnowledgeUnitInput {
  const cc = corpusInternal(c.seed);
  const rng = rngFrom(hash32(c.seed, STREAM.input, stream, i));
  const domain = sampleCdf(cc.domainCdf, rng);
  const examples: string[] = [];
  const exampleCount = sampleCdf(EXAMPLE_COUNT_CDF, rng);
  for (let e = 0; e < exampleCount; e++) examples.push(example(cc, rng, domain));
  const sentences: string[] = [];
  const sentenceCount = int(rng, 2, 8);
  for (let s = 0; s < sentenceCount; s++) sentences.push(sentence(cc, rng, domain, 8, 18));
  const r = rng();
  const domainName = DOMAINS[domain]!;
  const source =
    r < 0.5
      ? `https://docs.example.org/${domainName}/${zipfWord(cc, rng)}-${zipfWord(cc, rng)}`
      : r < 0.65
        ? `doi:10.${int(rng, 1000, 9999)}/${zipfWord(cc, rng)}.${int(rng, 1, 999)}`
        : `${pick(rng, PLAIN_SOURCES)} ${int(rng, 1, 400)}`;
  return {
    title: title(cc, rng, domain),
    type: pick(rng, UNIT_TYPES),
    domain: domainName,
    content: { description: sentences.join(' '), examples },
    metadata: { source, confidence: Math.round((0.4 + rng() * 0.6) * 100) / 100 },
    tags: distinctDomainWords(cc, rng, domain, sampleCdf(TAG_COUNT_CDF, rng)),
  };
}

const EXAMPLE_COUNT_CDF = cdfOf([15, 25, 30, 20, 10]); // 0..4 examples
const TAG_COUNT_CDF = cdfOf([10, 15, 25, 25, 15, 10]); // 0..5 tags

/** Ids that look like the service's (prefix + 128 bits, base64url), derived from (seed, kind, i). */
function opaqueId(seed: number, prefix: string, kind: number, i: number): string {
  const bytes = Buffer.alloc(16);
  for (let k = 0; k < 4; k++) bytes.writeUInt32BE(hash32(seed, STREAM.id, kind, i, k), k * 4);
  return prefix + bytes.toString('base64url');
}

export const unitId = (c: Corpus, i: number) => opaqueId(c.seed, 'ku_', 1, i);
export const skillId = (c: Corpus, i: number) => opaqueId(c.seed, 'sk_', 2, i);

// ---- agents ---------------------------------------------------------------------------------------

/** Owns every tenth unit and skill: the agent whose export the benchmark reads. */
export const EXPORTER_ID = 'bench-exporter';

export function contributorCount(units: number): number {
  return Math.max(10, Math.floor(units / 1_000));
}

export const contributorId = (k: number) => `bench-agent-${k}`;

function ownerOf(c: Corpus, units: number, kind: number, i: number): string {
  if (i % 10 === 0) return EXPORTER_ID;
  return contributorId(hash32(c.seed, kind, i) % contributorCount(units));
}

/** A raw API key derived from (seed, agent, attempt): the same corpus always has the same keys. */
export function agentKey(c: Corpus, agentId: string, attempt = 0): string {
  let h = hash32(c.seed, STREAM.key, attempt);
  for (let i = 0; i < agentId.length; i++) h = hash32(h, agentId.charCodeAt(i));
  const rng = rngFrom(h);
  return generateApiKey((max) => Math.floor(rng() * max));
}

// ---- timestamps -----------------------------------------------------------------------------------

const EPOCH = Date.UTC(2025, 0, 1);
const UNIT_SPACING_MS = 15_000;

// ---- the stored shapes ----------------------------------------------------------------------------

export interface UnitItem {
  unit: KnowledgeUnit;
  baseQuality: number;
}

/** Unit i of a corpus of `units` units, exactly as the service would have stored it on contribution. */
export function unitItem(c: Corpus, i: number, units: number): UnitItem {
  const input = unitInput(c, i);
  const baseQuality = unitBaseQuality(input);
  const at = new Date(EPOCH + i * UNIT_SPACING_MS + (hash32(c.seed, 9, i) % 10_000)).toISOString();
  return {
    baseQuality,
    unit: {
      id: unitId(c, i),
      agent_id: ownerOf(c, units, 1, i),
      title: input.title,
      type: input.type,
      domain: input.domain,
      content: input.content,
      metadata: input.metadata,
      tags: input.tags ?? [],
      quality_score: unitQuality(baseQuality, 0, 0),
      validations: { valid: 0, invalid: 0 },
      created_at: at,
      updated_at: at,
    },
  };
}

/** A corpus skill as the bulk path takes it: the plan of a new skill at its first version. */
export interface SkillItem {
  plan: SkillPlan;
}

interface SkillDraft {
  markdown: string;
  visibility: Visibility;
  name: string;
  description: string;
  license: string | null;
  domain: string;
  tags: string[];
  body: string;
}

/** The SKILL.md of skill i, with the fields the parser would read from it. */
function skillDraft(c: Corpus, i: number, stream = 0): SkillDraft {
  const cc = corpusInternal(c.seed);
  const rng = rngFrom(stream === 0 ? hash32(c.seed, STREAM.skill, i) : hash32(c.seed, STREAM.skill, stream, i));
  const domain = sampleCdf(cc.domainCdf, rng);
  const suffix = stream === 0 ? i.toString(36) : `s${stream}x${i.toString(36)}`;
  const name = `${zipfWord(cc, rng)}-${pick(rng, cc.domainWords[domain]!)}-${suffix}`;
  const tags = distinctDomainWords(cc, rng, domain, int(rng, 1, 4));
  const license = rng() < 0.8 ? pick(rng, LICENSES) : null;
  const description = [sentence(cc, rng, domain, 8, 16), sentence(cc, rng, domain, 6, 14)].join(' ');
  const head = ['---', `name: ${name}`, `description: ${JSON.stringify(description)}`];
  if (license) head.push(`license: ${license}`);
  // Registry fields live under metadata, as the Agent Skills format wants them (conformant skills).
  head.push('metadata:', `  domain: ${DOMAINS[domain]}`, `  tags: ${JSON.stringify(tags.join(', '))}`, '---');
  const body = ['', `# ${title(cc, rng, domain)}`, '']; // a blank line after the frontmatter, as people write it
  for (let p = int(rng, 1, 3); p > 0; p--) {
    body.push(Array.from({ length: int(rng, 2, 5) }, () => sentence(cc, rng, domain, 8, 18)).join(' '), '');
  }
  body.push('## When to use', '');
  for (let b = int(rng, 2, 5); b > 0; b--) body.push(`- ${sentence(cc, rng, domain, 5, 12)}`);
  body.push('', '## Steps', '');
  for (let s = 1, n = int(rng, 3, 7); s <= n; s++) body.push(`${s}. ${sentence(cc, rng, domain, 6, 14)}`);
  body.push(
    '',
    '```sh',
    `${zipfWord(cc, rng)} --${zipfWord(cc, rng)} ${zipfWord(cc, rng)}.${pick(rng, ['json', 'yaml', 'toml'])}`,
    '```',
    '',
  );
  return {
    markdown: [...head, ...body].join('\n'),
    visibility: rng() < 0.9 ? 'public' : 'private',
    name,
    description,
    license,
    domain: DOMAINS[domain]!,
    tags,
    body: body.join('\n'),
  };
}

/** The SKILL.md of skill i of a stream (0: the loaded corpus, others: new publications), as a client would POST it. */
export function skillMarkdown(c: Corpus, i: number, stream = 0): string {
  return skillDraft(c, i, stream).markdown;
}

/** Every this-many skills, the generated fields are checked against the service's own SKILL.md parser. */
const PARSER_CHECK_EVERY = 97;

/** Skill i of a corpus of `units` units, with the fields and score the service computes on contribution. */
export function skillItem(c: Corpus, i: number, units: number): SkillItem {
  const draft = skillDraft(c, i);
  // The parser is slow for millions of items, so most skills take the fields as generated; a sample is
  // parsed to prove that those are the fields (and that there are no warnings) the service would find.
  if (i % PARSER_CHECK_EVERY === 0) {
    const parsed = parseSkillMd(draft.markdown);
    if (!parsed.ok) throw new Error(`corpus skill ${i} is not a valid SKILL.md: ${parsed.message}`);
    const { skill: doc, warnings } = parsed;
    const same =
      doc.name === draft.name &&
      doc.description === draft.description &&
      doc.license === draft.license &&
      doc.domain === draft.domain &&
      doc.body === draft.body &&
      JSON.stringify(doc.tags) === JSON.stringify(draft.tags);
    if (!same || warnings.length > 0)
      throw new Error(
        `corpus skill ${i}: generated fields differ from the parser's (${warnings.map((w) => w.message).join('; ')})`,
      );
  }
  // Skills are spread over the same period as units, ten units apart.
  const at = new Date(EPOCH + i * 10 * UNIT_SPACING_MS + 7_000).toISOString();
  // The fields a publication reads from this SKILL.md (checked above every PARSER_CHECK_EVERY skills).
  return {
    plan: {
      kind: 'create',
      skillId: skillId(c, i),
      agentId: ownerOf(c, units, 2, i),
      name: draft.name,
      visibility: draft.visibility,
      rewardMillis: REWARD_MILLIS.contribute_skill,
      maxVersions: null,
      version: {
        version: FIRST_VERSION,
        sortKey: versionSortKey(FIRST_VERSION),
        release: true,
        digest: versionDigest(draft.markdown, []),
        displayName: draft.name,
        description: draft.description,
        domain: draft.domain,
        tags: draft.tags,
        license: draft.license,
        qualityScore: skillQuality({ ...draft, warnings: 0 }),
        conformant: true,
        warnings: [],
        skillMd: draft.markdown,
        skillMdDigest: sha256Digest(draft.markdown),
        skillMdBytes: Buffer.byteLength(draft.markdown, 'utf8'),
        frontmatter: hostFrontmatter(draft.markdown, draft.name, true),
        body: draft.body,
        files: [],
        publishedAt: at,
      },
    },
  };
}

// ---- queries --------------------------------------------------------------------------------------

/**
 * Search texts of two distinct words drawn by their own frequency, the COMMON_WORDS most frequent left
 * out: what a typical query looks like.
 */
export function typicalQueries(c: Corpus, count: number): string[] {
  const cc = corpusInternal(c.seed);
  const rng = rngFrom(hash32(c.seed, STREAM.query, 1));
  const out: string[] = [];
  const draw = () => {
    for (;;) {
      const rank = sampleCdf(cc.cdf, rng);
      if (rank >= COMMON_WORDS) return cc.words[rank]!;
    }
  };
  while (out.length < count) {
    const a = draw();
    const b = draw();
    if (a !== b) out.push(`${a} ${b}`);
  }
  return out;
}

/**
 * Questions as agents write them: 4–6 corpus words (beyond the most common) inside English framing that
 * search drops ("how do I … with … when …?"), so the index sees several OR-ed words per query.
 */
export function naturalQueries(c: Corpus, count: number): string[] {
  const cc = corpusInternal(c.seed);
  const rng = rngFrom(hash32(c.seed, STREAM.query, 2));
  const draw = () => {
    for (;;) {
      const rank = sampleCdf(cc.cdf, rng);
      if (rank >= COMMON_WORDS) return cc.words[rank]!;
    }
  };
  const frames = [
    (w: string[]) => `how do I ${w[0]} the ${w[1]} when ${w[2]} ${w[3]} is ${w[4] ?? 'slow'}?`,
    (w: string[]) => `I need to ${w[0]} my ${w[1]} ${w[2]} with ${w[3]}`,
    (w: string[]) => `is there a way to ${w[0]} ${w[1]} for ${w[2]} and ${w[3]} ${w[4] ?? ''}`,
    (w: string[]) => `what should I do when the ${w[0]} ${w[1]} fails on ${w[2]} ${w[3]} ${w[4] ?? ''} ${w[5] ?? ''}`,
  ];
  const out: string[] = [];
  for (let k = 0; out.length < count; k++) {
    const words = Array.from({ length: 4 + (k % 3) }, draw);
    out.push(frames[k % frames.length]!(words).replace(/\s+/g, ' ').trim());
  }
  return out;
}

/** The worst case: pairs of the four most frequent words, which nearly every unit contains. */
export function worstCaseQueries(c: Corpus): string[] {
  const top = corpus(c.seed).words.slice(0, 4);
  const out: string[] = [];
  for (let a = 0; a < top.length; a++) for (let b = a + 1; b < top.length; b++) out.push(`${top[a]} ${top[b]}`);
  return out;
}
