// What the benchmark asks the service, as autocannon request lists: each connection cycles through its
// list, and setupRequest varies the path, key or body per request from shared, deterministic sequences.
import type autocannon from 'autocannon';
import {
  DOMAINS,
  hash32,
  naturalQueries,
  skillMarkdown,
  typicalQueries,
  unitId,
  unitInput,
  worstCaseQueries,
  type Corpus,
} from './corpus.js';

export interface ScenarioContext {
  c: Corpus;
  /** Units in the loaded corpus. */
  n: number;
  contributorKey: string;
  validatorKeys: string[];
  /** An agent new to the run that publishes skills. */
  publisherKey: string;
}

export interface Scenario {
  name: string;
  label: string;
  /** Read-only scenarios are warmed up before measuring; writes are measured from their first request. */
  read: boolean;
  requests: autocannon.Request[];
  /** A few paths whose `total` describes how much the scenario's queries match (reads only). */
  samplePaths?: string[];
}

/** Requests that walk a list of paths in order, shared by all connections. */
function cycle(paths: string[], headers: Record<string, string> = {}): autocannon.Request[] {
  let next = 0;
  return [{ method: 'GET', headers, setupRequest: (request) => ({ ...request, path: paths[next++ % paths.length]! }) }];
}

const searchPath = (q: string) => `/v1/knowledge?q=${encodeURIComponent(q)}&limit=20`;
/** The web front's results page for the same question: the same search, 20 results, rendered as HTML. */
const resultsPagePath = (q: string) => `/search?kind=knowledge&q=${encodeURIComponent(q)}`;

/** Filtered lists: every domain with a spread of quality floors (unit scores mostly lie in 0.5..0.9). */
function filteredPaths(): string[] {
  const floors = [0.5, 0.6, 0.7, 0.8];
  return DOMAINS.flatMap((domain) => floors.map((q) => `/v1/knowledge?domain=${domain}&min_quality=${q}&limit=20`));
}

export function scenarios(ctx: ScenarioContext): Scenario[] {
  const { c, n } = ctx;
  const typical = typicalQueries(c, 2_000).map(searchPath);
  const worst = worstCaseQueries(c).map(searchPath);
  const naturalQuestions = naturalQueries(c, 2_000);
  const natural = naturalQuestions.map(searchPath);
  const naturalPages = naturalQuestions.map(resultsPagePath);
  const filtered = filteredPaths();
  const ids = Array.from({ length: 5_000 }, (_, k) => unitId(c, hash32(c.seed, 101, k) % n));
  const byId = ids.map((id) => `/v1/knowledge/${id}`);
  const unitPages = ids.map((id) => `/knowledge/${id}`);

  const json = { 'content-type': 'application/json' };
  let contributed = 0;
  const contribute: autocannon.Request = {
    method: 'POST',
    path: '/v1/knowledge',
    headers: { ...json, authorization: `Bearer ${ctx.contributorKey}` },
    // Stream 1 of the corpus's inputs: new, distinct bodies, never the loaded units.
    setupRequest: (request) => ({ ...request, body: JSON.stringify(unitInput(c, contributed++, 1)) }),
  };

  // New skills, each at its first version, from stream 1 of the corpus's SKILL.md files (never the loaded ones).
  let published = 0;
  const publish: autocannon.Request = {
    method: 'POST',
    path: '/v1/skills',
    headers: { ...json, authorization: `Bearer ${ctx.publisherKey}` },
    setupRequest: (request) => ({
      ...request,
      body: JSON.stringify({ skill_md_content: skillMarkdown(c, published++, 1), visibility: 'public' }),
    }),
  };

  // Request k: validator k mod V on unit (k div V), spread over the corpus. Validators are new for each
  // run and no pair repeats, so every verdict is a first verdict (a new row and a reward).
  let verdicts = 0;
  const validators = ctx.validatorKeys.length;
  const validate: autocannon.Request = {
    method: 'POST',
    setupRequest: (request) => {
      const k = verdicts++;
      const unit = unitId(c, (Math.floor(k / validators) * 7_919 + 13) % n);
      return {
        ...request,
        path: `/v1/knowledge/${unit}/validate`,
        headers: { ...json, authorization: `Bearer ${ctx.validatorKeys[k % validators]}` },
        body: JSON.stringify({ valid: k % 5 !== 0, feedback: k % 3 === 0 ? 'checked against the source' : '' }),
      };
    },
  };

  return [
    {
      name: 'search',
      label: 'search (2 words by frequency, top 50 left out)',
      read: true,
      requests: cycle(typical),
      samplePaths: typical.slice(0, 15),
    },
    {
      name: 'search_natural',
      label: 'search, questions in natural language (4–6 words in English framing)',
      read: true,
      requests: cycle(natural),
      samplePaths: natural.slice(0, 15),
    },
    // The web front: the same questions as search_natural, answered as the HTML results page a person sees.
    {
      name: 'search_natural_web',
      label: 'web results page (HTML), the same questions as search_natural',
      read: true,
      requests: cycle(naturalPages),
      samplePaths: natural.slice(0, 15),
    },
    {
      name: 'search_worst',
      label: 'search, worst case (2 most frequent words)',
      read: true,
      requests: cycle(worst),
      samplePaths: worst.slice(0, 2),
    },
    {
      name: 'list_filtered',
      label: 'filtered list (domain + min_quality)',
      read: true,
      requests: cycle(filtered),
      samplePaths: filtered.slice(0, 80).filter((_, k) => k % 5 === 0),
    },
    { name: 'get_by_id', label: 'get unit by id', read: true, requests: cycle(byId) },
    {
      name: 'get_by_id_web',
      label: 'web unit page (HTML), the same units as get_by_id',
      read: true,
      requests: cycle(unitPages),
    },
    { name: 'contribute', label: 'contribute unit (POST)', read: false, requests: [contribute] },
    { name: 'validate', label: 'validate unit (first verdicts)', read: false, requests: [validate] },
    { name: 'publish', label: 'publish skill (POST, new skills)', read: false, requests: [publish] },
  ];
}

/** The median `total` of a few of a scenario's list requests: how many units its queries match. */
export async function medianMatches(baseUrl: string, paths: string[]): Promise<number | undefined> {
  const totals: number[] = [];
  for (const path of paths) {
    const res = await fetch(baseUrl + path);
    // A refusal (503 when overloaded) shows up in the measurement itself; here it only goes uncounted.
    if (res.ok) totals.push(((await res.json()) as { total: number }).total);
    else await res.arrayBuffer();
  }
  totals.sort((a, b) => a - b);
  return totals[Math.floor(totals.length / 2)];
}
