#!/usr/bin/env node
// Posts every SKILL.md of a JSONL file to a running registry and reports what it made of them:
//
//   npm run corpus:check -- FILE [--base URL] [--concurrency N] [--publishers N] [--examples N] [--json OUT]
//
// FILE: one JSON object a line with `skill_md_content` (and optionally `doc`, `source`), plain or .gz, like
// the search-eval corpus. --base: the registry (default $REG_BASE_URL, else http://127.0.0.1:$REG_PORT or
// :3000). --concurrency: requests in flight (default 8). --publishers: agents to spread the skills over by
// their source folder (default 1: one agent, registered by this script with an enterprise key).
// --examples: messages to print per rule and per warning kind (default 2). --json: also write the report.
//
// Prints: accepted, refused by rule, 5xx answers, warnings by kind, conformant skills, and the share
// accepted among the files that have a frontmatter block with a name and a description (decided here
// by a minimal reader). Exits 1 unless that share is at least 99%, no answer was a 5xx, and every refusal
// named its rule. Start the registry on a fresh database with rate limits high enough for the load
// (e.g. REG_RATE_LIMIT_ENTERPRISE=1000000); 429 and 503 answers are retried after Retry-After.
//
// Plain Node 20, nothing else needed.
import { createReadStream, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : fallback;
};
const file = argv.find((a, i) => !a.startsWith('--') && !argv[i - 1]?.startsWith('--'));
if (!file) {
  console.error(
    'usage: npm run corpus:check -- FILE.jsonl[.gz] [--base URL] [--concurrency N] [--publishers N] [--examples N] [--json OUT]',
  );
  process.exit(2);
}
const base = option('base', process.env.REG_BASE_URL ?? `http://127.0.0.1:${process.env.REG_PORT ?? 3000}`).replace(
  /\/$/,
  '',
);
const concurrency = Math.max(1, Number(option('concurrency', 8)) || 8);
const publishers = Math.max(1, Number(option('publishers', 1)) || 1);
const examples = Math.max(0, Number(option('examples', 2)) || 0);
const jsonOut = option('json', null);

/** A frontmatter block whose top-level lines give a name and a description: what an agent runtime needs. */
function hasNameAndDescription(content) {
  const text = String(content ?? '')
    .replace(/^\uFEFF/, '')
    .replace(/\r\n?/g, '\n');
  if (!/^---[ \t]*\n/.test(text)) return false;
  const end = text.search(/\n---[ \t]*(\n|$)/);
  if (end < 0) return false;
  const lines = text.slice(text.indexOf('\n') + 1, end + 1).split('\n');
  const has = (key) =>
    lines.some((line, i) => {
      const m = new RegExp(`^["']?${key}["']?[ \\t]*:(.*)$`).exec(line);
      if (!m) return false;
      const rest = m[1].trim().replace(/^["']{2}$/, '');
      return rest !== '' || /^[ \t]+\S/.test(lines[i + 1] ?? '');
    });
  return has('name') && has('description');
}

// ---- HTTP -----------------------------------------------------------------------------------------------

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request, retried on 429/503 (after Retry-After) and on network errors; never throws. */
async function call(method, path, body, key) {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await fetch(base + path, {
        method,
        headers: {
          ...(body ? { 'content-type': 'application/json' } : {}),
          ...(key ? { authorization: `Bearer ${key}` } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      });
      const text = await res.text();
      if ((res.status === 429 || res.status === 503) && attempt < 50) {
        const after = Number(res.headers.get('retry-after'));
        await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : Math.min(5000, 100 * attempt));
        continue;
      }
      let json = null;
      try {
        json = JSON.parse(text);
      } catch {}
      return { status: res.status, json, text };
    } catch (error) {
      if (attempt >= 5) return { status: 0, json: null, text: String(error?.cause?.code ?? error?.message ?? error) };
      await sleep(200 * attempt);
    }
  }
}

const run = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
const keys = new Map();
/** The key of the publisher of a skill: its source folder, hashed into `publishers` agents. */
function keyFor(source) {
  const dir = String(source ?? '').replace(/\/[^/]*$/, '');
  let h = 0;
  for (const c of dir) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  const bucket = publishers === 1 ? 0 : h % publishers;
  if (!keys.has(bucket)) {
    const agentId = `corpus-check-${run}-${bucket}`;
    keys.set(
      bucket,
      call('POST', '/v1/auth/register', { agent_id: agentId, scopes: ['read', 'write'], tier: 'enterprise' }).then(
        (res) => {
          if (res.status !== 201 || !res.json?.data?.api_key) {
            console.error(`could not register ${agentId} at ${base}: HTTP ${res.status} ${res.text.slice(0, 300)}`);
            process.exit(2);
          }
          return res.json.data.api_key;
        },
      ),
    );
  }
  return keys.get(bucket);
}

// ---- classification -------------------------------------------------------------------------------------

/** The rule a 400 names: "(rule no_name)" at the end of the message, else a schema bound, else null. */
function ruleOf(json) {
  const error = json?.error ?? {};
  if (typeof error.rule === 'string') return error.rule;
  const message = String(error.message ?? '');
  const named = /\(rule ([a-z_]+)\)\s*$/.exec(message);
  if (named) return named[1];
  if (/^skill_md_content .*(at most|more than|fewer than|longer|shorter).*100000/i.test(message))
    return 'content_too_large';
  return null;
}

// When the answer carries no warning kinds (warnings as plain strings), the kind is read from the text.
const KIND_OF_MESSAGE = [
  [/^([a-z_]+): /, null],
  [/^\d+ more ([a-z_]+) warnings$/, null],
  [/more metadata values that are not text/, 'nonconformant_field'],
  [/^unknown frontmatter field|more unknown frontmatter fields/, 'unknown_field'],
  [
    /is not valid YAML|YAML keys must be unique|reads as an alias|reads as a comment|belongs to no field|key that is a list/,
    'yaml_lenient',
  ],
  [/is not a conformant name/, 'name_normalized'],
  [/the Agent Skills format allows 1024/, 'description_long'],
  [/not indexed|are indexed$/, 'value_ignored'],
  [
    /Agent Skills format|must be text|must be a mapping|must be a space-separated|must list tool names/,
    'nonconformant_field',
  ],
  [/^the body is empty/, 'empty_body'],
  [/^the body is long/, 'long_body'],
  [/invisible Unicode characters/, 'invisible_characters'],
  [/HTML/, 'html'],
  [/prompt injection/, 'prompt_injection'],
];
function kindOfMessage(message) {
  for (const [pattern, kind] of KIND_OF_MESSAGE) {
    const m = pattern.exec(message);
    if (m) return kind ?? m[1];
  }
  return 'other';
}

/** Warnings of a 201 answer as [kind, message] pairs, and its conformance when the answer says. */
function warningsOf(json) {
  const conformance = json?.data?.conformance;
  if (Array.isArray(conformance?.warnings)) {
    return {
      list: conformance.warnings.map((w) => [String(w.kind), String(w.message)]),
      conformant: conformance.conformant,
    };
  }
  const plain = Array.isArray(json?.warnings) ? json.warnings : [];
  const list = plain.map((w) =>
    typeof w === 'string' ? [kindOfMessage(w), w] : [String(w?.kind ?? 'other'), String(w?.message ?? '')],
  );
  const conformant = typeof json?.data?.conformant === 'boolean' ? json.data.conformant : undefined;
  return { list, conformant };
}

// ---- the run --------------------------------------------------------------------------------------------

const tally = {
  files: 0,
  accepted: 0,
  conformant: 0,
  conformance_reported: 0,
  refused: {},
  refused_without_rule: 0,
  server_errors: 0,
  other_statuses: {},
  warnings_by_kind: {},
  skills_by_warning_kind: {},
  eligible: 0,
  eligible_accepted: 0,
};
const shown = {};
const bump = (map, key, by = 1) => {
  map[key] = (map[key] ?? 0) + by;
};
const example = (key, text) => {
  shown[key] ??= [];
  if (shown[key].length < examples) shown[key].push(text.replace(/\s+/g, ' ').slice(0, 400));
};

async function handle(row) {
  const content = row.skill_md_content;
  const id = row.doc ?? `line ${tally.files + 1}`;
  const eligible = hasNameAndDescription(content);
  tally.files++;
  if (eligible) tally.eligible++;
  const res = await call(
    'POST',
    '/v1/skills',
    { skill_md_content: content, visibility: 'public' },
    await keyFor(row.source),
  );
  if (res.status === 201) {
    tally.accepted++;
    if (eligible) tally.eligible_accepted++;
    const { list, conformant } = warningsOf(res.json);
    if (typeof conformant === 'boolean') {
      tally.conformance_reported++;
      if (conformant) tally.conformant++;
    }
    const kinds = new Set();
    for (const [kind, message] of list) {
      bump(tally.warnings_by_kind, kind);
      if (!kinds.has(kind)) example(`warning ${kind}`, `${id}: ${message}`);
      kinds.add(kind);
    }
    for (const kind of kinds) bump(tally.skills_by_warning_kind, kind);
  } else if (res.status === 400) {
    const rule = ruleOf(res.json);
    if (rule) bump(tally.refused, rule);
    else tally.refused_without_rule++;
    example(
      `refused ${rule ?? '(no rule)'}`,
      `${id}${eligible ? ' [has name and description]' : ''}: ${res.json?.error?.message ?? res.text}`,
    );
  } else if (res.status >= 500) {
    tally.server_errors++;
    example(`HTTP ${res.status}`, `${id}: ${res.text}`);
  } else {
    bump(tally.other_statuses, res.status === 0 ? 'network error' : `HTTP ${res.status}`);
    example(`HTTP ${res.status || 'network error'}`, `${id}: ${res.text}`);
  }
  if (tally.files % 1000 === 0)
    process.stderr.write(
      `  ${tally.files} posted, ${tally.accepted} accepted (${Math.round(tally.files / ((Date.now() - started) / 1000))}/s)\n`,
    );
}

async function* rows(path) {
  const input = path.endsWith('.gz') ? createReadStream(path).pipe(createGunzip()) : createReadStream(path);
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    let row;
    try {
      row = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof row?.skill_md_content === 'string') yield row;
  }
}

const started = Date.now();
{
  const iterator = rows(file);
  // Workers pull from one iterator, one line at a time.
  let lock = Promise.resolve();
  const next = () => {
    lock = lock.then(() => iterator.next());
    return lock;
  };
  const worker = async () => {
    for (let item = await next(); !item.done; item = await next()) await handle(item.value);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}
const seconds = (Date.now() - started) / 1000;

// ---- report ---------------------------------------------------------------------------------------------

const pct = (n, of) => `${((100 * n) / Math.max(1, of)).toFixed(2)}%`;
const sorted = (map) => Object.entries(map).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
const share = tally.eligible_accepted / Math.max(1, tally.eligible);
const checks = [
  [
    `accepted ${pct(tally.eligible_accepted, tally.eligible)} of the files with a frontmatter name and description (at least 99%)`,
    share >= 0.99,
  ],
  [`no 5xx answer (${tally.server_errors})`, tally.server_errors === 0],
  [`every refusal names its rule (${tally.refused_without_rule} do not)`, tally.refused_without_rule === 0],
];

console.log(
  `${tally.files} skills posted to ${base} in ${seconds.toFixed(0)} s (${concurrency} at a time, ${keys.size} agent(s))`,
);
console.log(`accepted ${tally.accepted} (${pct(tally.accepted, tally.files)})`);
if (tally.conformance_reported > 0)
  console.log(`conformant ${tally.conformant} of ${tally.conformance_reported} accepted skills that say`);
const refusedTotal = Object.values(tally.refused).reduce((a, b) => a + b, 0) + tally.refused_without_rule;
console.log(`refused ${refusedTotal} (${pct(refusedTotal, tally.files)}), by rule:`);
for (const [rule, n] of sorted(tally.refused)) console.log(`  ${rule.padEnd(26)} ${n}`);
if (tally.refused_without_rule) console.log(`  ${'(no rule named)'.padEnd(26)} ${tally.refused_without_rule}`);
console.log(`5xx answers: ${tally.server_errors}`);
for (const [status, n] of sorted(tally.other_statuses)) console.log(`${status}: ${n}`);
console.log('warnings by kind (warnings / skills):');
for (const [kind, n] of sorted(tally.warnings_by_kind))
  console.log(`  ${kind.padEnd(26)} ${n} / ${tally.skills_by_warning_kind[kind]}`);
console.log(
  `files with a frontmatter name and description: ${tally.eligible}, accepted ${tally.eligible_accepted} (${pct(tally.eligible_accepted, tally.eligible)})`,
);
for (const [key, list] of Object.entries(shown)) for (const text of list) console.log(`  [${key}] ${text}`);
for (const [text, ok] of checks) console.log(`${ok ? 'ok  ' : 'FAIL'} ${text}`);
if (jsonOut)
  writeFileSync(jsonOut, `${JSON.stringify({ base, seconds, ...tally, examples: shown, checks }, null, 2)}\n`);
process.exitCode = checks.every(([, ok]) => ok) ? 0 : 1;
