// Runs parseSkillMd over every SKILL.md of a JSONL file (plain or .gz; one {skill_md_content} object a
// line, like the search-eval corpus) in this process, and prints accepted / refused by rule / warnings by
// kind / conformant, the slowest parses, and the share accepted among the files that have a frontmatter
// block with a name and a description. Not a test: a fast loop while changing the parser.
//
//   npx tsx bench/skill-md-corpus.ts FILE [--examples N] [--json]
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parseSkillMd } from '../src/domain/skill-md.js';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--'));
const option = (name: string) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const examples = Number(option('examples') ?? 0);
if (!file) {
  console.error('usage: npx tsx bench/skill-md-corpus.ts FILE.jsonl[.gz] [--examples N] [--json]');
  process.exit(2);
}

/** The minimal reader that decides the denominator: a --- block whose top-level lines give a name and a description. */
export function hasNameAndDescription(content: string): boolean {
  const text = content.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (!text.startsWith('---\n') && !/^---[ \t]+\n/.test(text)) return false;
  const end = text.search(/\n---[ \t]*(\n|$)/);
  if (end < 0) return false;
  const lines = text.slice(text.indexOf('\n') + 1, end + 1).split('\n');
  const has = (key: string) =>
    lines.some((line, i) => {
      const m = new RegExp(`^["']?${key}["']?[ \\t]*:(.*)$`).exec(line);
      if (!m) return false;
      const rest = m[1]!.trim().replace(/^["']{2}$/, '');
      return rest !== '' || /^[ \t]+\S/.test(lines[i + 1] ?? '');
    });
  return has('name') && has('description');
}

const bump = (map: Map<string, number>, key: string, by = 1) => map.set(key, (map.get(key) ?? 0) + by);
const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));

const refused = new Map<string, number>();
const warned = new Map<string, number>(); // warnings by kind
const skillsWarned = new Map<string, number>(); // skills with at least one warning of a kind
const example = new Map<string, string[]>();
const slowest: Array<[number, string]> = [];
let total = 0;
let accepted = 0;
let conformant = 0;
let eligible = 0;
let eligibleAccepted = 0;
let parseMs = 0;

const input = file.endsWith('.gz') ? createReadStream(file).pipe(createGunzip()) : createReadStream(file);
for await (const line of createInterface({ input, crlfDelay: Infinity })) {
  if (!line.trim()) continue;
  const row = JSON.parse(line) as { doc?: string; skill_md_content: string };
  const id = row.doc ?? String(total);
  total++;
  const started = performance.now();
  const result = parseSkillMd(row.skill_md_content);
  const ms = performance.now() - started;
  parseMs += ms;
  slowest.push([ms, id]);
  if (slowest.length > 20) slowest.sort((a, b) => b[0] - a[0]).pop();
  const isEligible = hasNameAndDescription(row.skill_md_content);
  if (isEligible) eligible++;
  if (result.ok) {
    accepted++;
    if (isEligible) eligibleAccepted++;
    if (result.conformant) conformant++;
    const kinds = new Set<string>();
    for (const w of result.warnings) {
      bump(warned, w.kind);
      kinds.add(w.kind);
    }
    for (const kind of kinds) {
      bump(skillsWarned, kind);
      const list = example.get(kind) ?? [];
      if (list.length < examples) list.push(`${id}: ${result.warnings.find((w) => w.kind === kind)!.message}`);
      example.set(kind, list);
    }
  } else {
    bump(refused, result.rule);
    const list = example.get(result.rule) ?? [];
    if (list.length < examples) list.push(`${id}${isEligible ? ' (has name+description)' : ''}: ${result.message}`);
    example.set(result.rule, list);
  }
}

slowest.sort((a, b) => b[0] - a[0]);
const pct = (n: number, of: number) => `${((100 * n) / Math.max(1, of)).toFixed(2)}%`;
const report = {
  files: total,
  accepted,
  conformant,
  refused: Object.fromEntries(sorted(refused)),
  warnings_by_kind: Object.fromEntries(sorted(warned)),
  skills_with_warning_kind: Object.fromEntries(sorted(skillsWarned)),
  with_name_and_description: eligible,
  accepted_among_them: eligibleAccepted,
  share_accepted_among_them: pct(eligibleAccepted, eligible),
  parse_ms_total: Math.round(parseMs),
  slowest_ms: slowest.slice(0, 5).map(([ms, id]) => `${id} ${ms.toFixed(2)}`),
};
if (args.includes('--json')) {
  console.log(JSON.stringify(report, null, 2));
} else {
  console.log(
    `files ${total}, accepted ${accepted} (${pct(accepted, total)}), conformant ${conformant} (${pct(conformant, total)})`,
  );
  console.log(
    `with a frontmatter name and description: ${eligible}, accepted ${eligibleAccepted} (${report.share_accepted_among_them})`,
  );
  console.log('refused by rule:');
  for (const [rule, n] of sorted(refused)) console.log(`  ${rule.padEnd(24)} ${n}`);
  console.log('warnings by kind (warnings / skills):');
  for (const [kind, n] of sorted(warned)) console.log(`  ${kind.padEnd(24)} ${n} / ${skillsWarned.get(kind)}`);
  console.log(`parse time: total ${report.parse_ms_total} ms, slowest ${report.slowest_ms.join(', ')}`);
  for (const [key, list] of example) for (const text of list) console.log(`  [${key}] ${text}`);
}
