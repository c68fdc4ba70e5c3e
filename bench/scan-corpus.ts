// The scanner over a corpus of real skills (JSONL, plain or .gz, one `{ doc, skill_md_content, files? }` a
// line; by default ../shared/search-eval/corpus.jsonl.gz): the share judged clean, suspicious and malicious,
// how many would be refused for credentials, the rules behind the verdicts, and the malicious ones to read by
// hand. No registry: the scanner is called as the publication calls it.
//
//   npm run bench:scan-corpus [-- --set FILE] [--max N] [--json OUT]
import { createReadStream, existsSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanSkill } from '../src/scan/index.js';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const set = resolve(opt('set') ?? join(root, '..', 'shared', 'search-eval', 'corpus.jsonl.gz'));
const max = Number(opt('max') ?? Infinity);
if (!existsSync(set)) {
  console.log(`scan-corpus: ${set} not found; name a JSONL corpus with --set`);
  process.exit(0);
}

interface Line {
  doc?: string;
  id?: string;
  skill_md_content: string;
  files?: { path: string; content?: string; content_base64?: string }[];
}

const counts = { n: 0, clean: 0, suspicious: 0, malicious: 0, secrets: 0 };
const rules = new Map<string, number>();
const malicious: { id: string; findings: string[] }[] = [];
const suspiciousSample: { id: string; findings: string[] }[] = [];
const secretKinds = new Map<string, number>();
const times: number[] = [];
const input = createReadStream(set);
const lines = createInterface({ input: set.endsWith('.gz') ? input.pipe(createGunzip()) : input, crlfDelay: Infinity });
for await (const text of lines) {
  if (!text.trim()) continue;
  if (counts.n >= max) break;
  const item = JSON.parse(text) as Line;
  const files = [
    { path: 'SKILL.md', bytes: Buffer.from(item.skill_md_content, 'utf8') },
    ...(item.files ?? []).map((f) => ({
      path: f.path,
      bytes: f.content_base64 !== undefined ? Buffer.from(f.content_base64, 'base64') : Buffer.from(f.content ?? ''),
    })),
  ];
  const started = performance.now();
  const result = await scanSkill({ files });
  times.push(performance.now() - started);
  counts.n++;
  const id = item.doc ?? item.id ?? String(counts.n);
  if (result.secrets.length > 0) {
    counts.secrets++;
    for (const s of result.secrets) secretKinds.set(s.kind, (secretKinds.get(s.kind) ?? 0) + 1);
  }
  counts[result.verdict]++;
  const shown = result.findings.filter((f) => f.severity !== 'low');
  for (const f of new Set(shown.map((f) => `${f.severity} ${f.rule}`))) rules.set(f, (rules.get(f) ?? 0) + 1);
  const summary = shown
    .slice(0, 4)
    .map((f) => `${f.severity} ${f.rule}@${f.file}:${f.line} ${f.excerpt.slice(0, 140)}`);
  if (result.verdict === 'malicious') malicious.push({ id, findings: summary });
  else if (result.verdict === 'suspicious' && suspiciousSample.length < 60)
    suspiciousSample.push({ id, findings: summary });
}

const pct = (a: number) => `${((100 * a) / Math.max(1, counts.n)).toFixed(2)}%`;
times.sort((a, b) => a - b);
const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]?.toFixed(2);
console.log(`scanned ${counts.n} skills from ${set}`);
console.log(
  `clean ${counts.clean} (${pct(counts.clean)}), suspicious ${counts.suspicious} (${pct(counts.suspicious)}), malicious ${counts.malicious} (${pct(counts.malicious)}); refused for credentials ${counts.secrets} (${pct(counts.secrets)})`,
);
console.log(`scan time per skill: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`);
console.log('\nskills per rule (medium and above):');
for (const [rule, k] of [...rules].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`  ${k} × ${rule}`);
if (secretKinds.size) console.log(`\ncredential kinds: ${[...secretKinds].map(([k, n]) => `${k} ${n}`).join(', ')}`);
console.log(`\nmalicious (${malicious.length}):`);
for (const m of malicious) console.log(`  ${m.id}\n    ${m.findings.join('\n    ')}`);
const out = opt('json');
if (out) writeFileSync(out, JSON.stringify({ counts, rules: [...rules], malicious, suspiciousSample }, null, 2));
