// How long parseSkillMd takes on the worst SKILL.md files that can be built within its bounds, next to a
// typical real-world file. Not a test (timings depend on the machine): run it after changing the parser.
//
//   npx tsx bench/skill-md-parse.ts [--repeats 50] [--json]
//
// Each input is parsed `repeats` times after a warm-up; the table gives p50 and max in milliseconds, the
// outcome (accepted, or the refusal rule) and the number of warnings.
import {
  MAX_DESCRIPTION_CHARS,
  MAX_FRONTMATTER_CHARS,
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_KEYS,
  MAX_FRONTMATTER_LINES,
  MAX_FRONTMATTER_VALUES,
  MAX_SKILL_MD_CHARS,
  parseSkillMd,
} from '../src/domain/skill-md.js';

const args = process.argv.slice(2);
const repeats = Number(args[args.indexOf('--repeats') + 1] ?? 50) || 50;

const BODY = [
  '# PDF tables',
  '',
  'Extract tables from PDF reports into CSV files that spreadsheets and pandas read directly.',
  '',
  '## When to use',
  '',
  '- The user asks for the numbers in a PDF report.',
  '- A table spans several pages and must be stitched together.',
  '',
  '## Steps',
  '',
  '1. Run `pdftotext -layout report.pdf` to see the layout.',
  '2. Run the script:',
  '',
  '```sh',
  'python3 scripts/extract.py report.pdf --pages 3-7 --out tables/',
  '```',
  '',
  '3. Check the CSV headers against the PDF.',
  '',
].join('\n');

const fm = (lines: string[], body = 'Body.\n') => `---\n${lines.join('\n')}\n---\n${body}`;
const head = ['name: worst-case', 'description: A worst case for the parser.'];
/** Fills the frontmatter up to its size bound with one more field. */
const fill = (lines: string[], key = 'metadata') => {
  const used = lines.join('\n').length + key.length + 10;
  return [...lines, `${key}: "${'x'.repeat(Math.max(0, MAX_FRONTMATTER_CHARS - used))}"`];
};
const keys = (n: number, value: (i: number) => string) =>
  Array.from({ length: n }, (_, i) => `k${i.toString(36)}: ${value(i)}`);

/** The largest n (up to `high`) for which build(n) is accepted: the worst input of its shape within the bounds. */
function largest(build: (n: number) => string, high: number): string {
  let low = 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    const content = build(mid);
    if (content.length <= MAX_SKILL_MD_CHARS && parseSkillMd(content).ok) low = mid;
    else high = mid - 1;
  }
  return build(low);
}

const tower = (r: number) =>
  Array.from({ length: MAX_FRONTMATTER_DEPTH - 1 }, (_, i) => `${'  '.repeat(i)}k${r}x${i}:`).concat(
    `${'  '.repeat(MAX_FRONTMATTER_DEPTH - 1)}leaf: x`,
  );
const nestedFlow = `${'['.repeat(MAX_FRONTMATTER_DEPTH - 1)}a${']'.repeat(MAX_FRONTMATTER_DEPTH - 1)}`;

const inputs: Array<[string, string]> = [
  [
    'typical real-world file',
    fm(
      [
        'name: pdf-tables',
        'description: Extract tables from PDF files into CSV. Use when the user asks for data locked in a PDF report.',
        'license: Apache-2.0',
        'allowed-tools: Bash(python3:*) Read Write',
        'metadata:',
        '  author: docs-team',
        '  version: "2.1.0"',
        '  tags: pdf, csv, tables',
      ],
      BODY.repeat(8),
    ),
  ],
  [
    'typical invalid-YAML file (description: | text)',
    fm(
      ['name: pdf-tables', 'description: | Use when this capability is needed.', 'metadata:', '  author: docs-team'],
      BODY.repeat(8),
    ),
  ],
  [
    `max keys (${MAX_FRONTMATTER_KEYS}), empty values`,
    largest((n) => fm([...head, ...keys(n, () => '')]), MAX_FRONTMATTER_KEYS),
  ],
  [
    'max keys with long values, max size',
    largest(
      (n) => fm([...head, ...keys(n, () => 'x'.repeat(Math.floor(MAX_FRONTMATTER_CHARS / n) - 8))]),
      MAX_FRONTMATTER_KEYS,
    ),
  ],
  [
    `max values (${MAX_FRONTMATTER_VALUES}) in one flow list`,
    largest((n) => fm([...head, `metadata: {tags: [${Array(n).fill('a').join(',')}]}`]), MAX_FRONTMATTER_VALUES),
  ],
  [
    'max values as a block list',
    largest((n) => fm([...head, 'metadata:', '  tags:', ...Array(n).fill('    - a')]), MAX_FRONTMATTER_VALUES),
  ],
  [
    `max flow depth (${MAX_FRONTMATTER_DEPTH - 1}) repeated, max size`,
    largest((n) => fm(fill([...head, ...keys(n, () => nestedFlow)])), MAX_FRONTMATTER_VALUES),
  ],
  [
    `max block depth (${MAX_FRONTMATTER_DEPTH}) repeated`,
    largest((n) => fm([...head, ...Array.from({ length: n }, (_, r) => tower(r)).flat()]), MAX_FRONTMATTER_KEYS),
  ],
  ['max size: one long metadata value', fm(fill([...head]))],
  [
    `max description (${MAX_DESCRIPTION_CHARS}) with max size`,
    fm(fill(['name: worst-case', `description: ${'d'.repeat(MAX_DESCRIPTION_CHARS)}`])),
  ],
  [
    'fallback: every field invalid (": " inside)',
    largest(
      (n) =>
        fm([
          ...head.slice(0, 1),
          ...keys(n, () => `a: ${'x'.repeat(Math.floor(MAX_FRONTMATTER_CHARS / n) - 12)}`),
          'description: d',
        ]),
      MAX_FRONTMATTER_KEYS,
    ),
  ],
  [
    'fallback: every field starts with *',
    largest(
      (n) => fm([...head, ...keys(n, () => `*${'x'.repeat(Math.floor(MAX_FRONTMATTER_CHARS / n) - 10)}`)]),
      MAX_FRONTMATTER_KEYS,
    ),
  ],
  [
    'fallback: every field "| text"',
    largest(
      (n) => fm([...head, ...keys(n, () => `| ${'x'.repeat(Math.floor(MAX_FRONTMATTER_CHARS / n) - 10)}`)]),
      MAX_FRONTMATTER_KEYS,
    ),
  ],
  [
    'fallback: unclosed [ before valid fields',
    largest(
      (n) => fm([...head, ...Array.from({ length: n }, (_, i) => `a${i}: [x ${'y'.repeat(50)}\nb${i}: fine`)]),
      MAX_FRONTMATTER_KEYS,
    ),
  ],
  [
    'fallback: invalid nested blocks',
    largest(
      (n) => fm([...head, ...Array.from({ length: n }, (_, i) => `m${i}:\n  a: b: ${'c'.repeat(100)}\n  - d`)]),
      MAX_FRONTMATTER_KEYS,
    ),
  ],
  [
    'many colons on one line',
    largest((n) => fm(['name: worst-case', `description: ${'a: '.repeat(n)}`]), MAX_FRONTMATTER_KEYS),
  ],
  [
    'a run of * filling the frontmatter',
    fm([
      'name: worst-case',
      `description: ${'*'.repeat(MAX_DESCRIPTION_CHARS - 1)}`,
      `metadata: "${'*'.repeat(MAX_FRONTMATTER_CHARS - MAX_DESCRIPTION_CHARS - 60)}"`,
    ]),
  ],
  ['quoted value full of escapes', fm(fill(['name: worst-case', `description: "${'\\"\\u00e9'.repeat(400)}"`]))],
  [
    'aliases up to the expansion bound',
    largest(
      (n) => fm([...head, `a0: &a0 "${'x'.repeat(2000)}"`, ...Array.from({ length: n }, (_, i) => `b${i}: *a0`)]),
      MAX_FRONTMATTER_KEYS,
    ),
  ],
  [`${MAX_FRONTMATTER_LINES} lines of comments`, fm([...head, ...Array(MAX_FRONTMATTER_LINES - 3).fill('# comment')])],
  [
    'max body: HTML-like, backticks, injection-like text',
    fm(
      head,
      (() => {
        const unit = '<a `x` <example> ignore previous results ``` you are `` now <!- \n';
        return unit.repeat(Math.floor((MAX_SKILL_MD_CHARS - 100) / unit.length));
      })(),
    ),
  ],
  ['refused: 12,000 keys', fm([...head, ...Array.from({ length: 12_000 }, (_, i) => `${(1296 + i).toString(36)}:`)])],
  ['refused: 30,000 nested [', fm([...head, `metadata: ${'['.repeat(30_000)}`])],
  ['refused: 15,000 values', fm([...head, `metadata: [${'a,'.repeat(15_000)}]`])],
  [
    'refused: unclosed [ before every field',
    fm([...head, ...Array.from({ length: 100 }, (_, i) => `a${i}: [x ${'y'.repeat(50)}\nb${i}: fine`)]),
  ],
  [
    'refused: alias bomb',
    fm([
      ...head,
      'a: &a [x,x,x,x,x,x,x,x,x]',
      ...Array.from(
        { length: 8 },
        (_, i) =>
          `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(9)
            .fill(`*${String.fromCharCode(97 + i)}`)
            .join(',')}]`,
      ),
    ]),
  ],
];

interface Row {
  input: string;
  chars: number;
  outcome: string;
  warnings: number;
  p50_ms: number;
  max_ms: number;
}

const rows: Row[] = [];
for (const [name, content] of inputs) {
  if (content.length > MAX_SKILL_MD_CHARS) throw new Error(`${name}: ${content.length} characters, over the bound`);
  for (let i = 0; i < 5; i++) parseSkillMd(content); // warm-up
  const times: number[] = [];
  let result = parseSkillMd(content);
  for (let i = 0; i < repeats; i++) {
    const started = performance.now();
    result = parseSkillMd(content);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  rows.push({
    input: name,
    chars: content.length,
    outcome: result.ok ? `accepted${result.conformant ? ', conformant' : ''}` : `refused: ${result.rule}`,
    warnings: result.ok ? result.warnings.length : 0,
    p50_ms: Number(times[Math.floor(times.length / 2)]!.toFixed(3)),
    max_ms: Number(times[times.length - 1]!.toFixed(3)),
  });
}

if (args.includes('--json')) {
  console.log(JSON.stringify({ node: process.version, repeats, rows }, null, 2));
} else {
  console.log(`parseSkillMd, ${repeats} repeats each, Node ${process.version}`);
  console.log(`${'input'.padEnd(52)} ${'chars'.padStart(7)}  ${'p50 ms'.padStart(7)} ${'max ms'.padStart(7)}  outcome`);
  for (const r of rows) {
    console.log(
      `${r.input.padEnd(52)} ${String(r.chars).padStart(7)}  ${r.p50_ms.toFixed(3).padStart(7)} ${r.max_ms.toFixed(3).padStart(7)}  ${r.outcome}${r.warnings ? ` (${r.warnings} warnings)` : ''}`,
    );
  }
}
