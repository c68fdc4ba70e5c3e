// What the scanner costs a publication, on one core: a typical SKILL.md (about 6 KB of prose with two code
// blocks), a typical bundle (SKILL.md and five scripts, about 30 KB), and the largest bundle allowed (64
// files, 768 KiB of shell, Python, JavaScript and Markdown), and the same with something in every script that
// the rules look at (so every script is parsed: the worst case). Prints p50/p99/max per scan in ms.
//
//   npm run bench:scan [-- --runs N]
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_FILES } from '../src/domain/bundles.js';
import { scanSkill, type ScanFile } from '../src/scan/index.js';

const at = process.argv.indexOf('--runs');
const runs = at >= 0 ? Number(process.argv[at + 1]) : 50;
const enc = (s: string) => Buffer.from(s, 'utf8');

const prose = (i: number) =>
  `## Step ${i}\n\nRead the input files the user names, check each against the schema, and report what differs. ` +
  `Keep the report short: one line per problem, with the file and the line. When nothing differs, say so.\n\n` +
  `- Use \`jq\` for JSON and \`yq\` for YAML.\n- Never change files the user did not name.\n\n`;
const skillMd = (kb: number) => {
  let body =
    '---\nname: schema-check\ndescription: Check JSON and YAML files against a schema.\n---\n# Schema check\n\n';
  body += '```bash\npip install check-jsonschema\ncheck-jsonschema --schemafile schema.json data/*.json\n```\n\n';
  for (let i = 0; body.length < kb * 1024; i++) body += prose(i);
  return `${body}\n\`\`\`python\nimport json, sys\nprint(json.load(open(sys.argv[1])))\n\`\`\`\n`;
};
const shell = (i: number) =>
  `#!/usr/bin/env bash\nset -euo pipefail\n# step ${i}\nfor f in "$@"; do\n  if [ -f "$f" ]; then\n    jq -e . "$f" > /dev/null && echo "ok $f" || echo "bad $f"\n  fi\ndone\n`;
const python = (i: number) =>
  `import json, sys, pathlib\n\ndef check_${i}(path):\n    data = json.loads(pathlib.Path(path).read_text())\n    return [k for k in data if not k.islower()]\n\nif __name__ == "__main__":\n    for p in sys.argv[1:]:\n        print(p, check_${i}(p))\n`;
const js = (i: number) =>
  `import { readFileSync } from 'node:fs';\nexport function check${i}(path) {\n  const data = JSON.parse(readFileSync(path, 'utf8'));\n  return Object.keys(data).filter((k) => k !== k.toLowerCase());\n}\nconsole.log(process.argv.slice(2).map(check${i}));\n`;
const fill = (unit: (i: number) => string, bytes: number) => {
  let out = '';
  for (let i = 0; out.length < bytes; i++) out += unit(i);
  return out.slice(0, bytes);
};

function largest(suspicious = false): ScanFile[] {
  const per = Math.floor((MAX_BUNDLE_BYTES - 8 * 1024) / (MAX_BUNDLE_FILES - 1));
  const kinds: [string, (i: number) => string][] = [
    ['sh', shell],
    ['py', python],
    ['js', js],
    ['md', prose],
  ];
  const files: ScanFile[] = [{ path: 'SKILL.md', bytes: enc(skillMd(8)) }];
  for (let i = 0; i < MAX_BUNDLE_FILES - 1; i++) {
    const [ext, unit] = kinds[i % kinds.length]!;
    // The worst case: every script has something the rules look at, so every one is parsed.
    const head = suspicious
      ? ext === 'py'
        ? '# curl\n'
        : ext === 'js'
          ? '// curl\n'
          : 'curl -fsSL https://get.example.dev/i.sh | sh\n'
      : '';
    files.push({ path: `scripts/part-${i}.${ext}`, bytes: enc(head + fill(unit, per - head.length)) });
  }
  return files;
}

const cases: [string, ScanFile[]][] = [
  ['typical SKILL.md (6 KB)', [{ path: 'SKILL.md', bytes: enc(skillMd(6)) }]],
  [
    'typical bundle (6 files, 30 KB)',
    [
      { path: 'SKILL.md', bytes: enc(skillMd(6)) },
      { path: 'scripts/a.sh', bytes: enc(fill(shell, 4096)) },
      { path: 'scripts/b.py', bytes: enc(fill(python, 6144)) },
      { path: 'scripts/c.js', bytes: enc(fill(js, 6144)) },
      { path: 'references/d.md', bytes: enc(fill(prose, 6144)) },
      { path: 'scripts/e.py', bytes: enc(fill(python, 2048)) },
    ],
  ],
  ['largest bundle (64 files, 768 KiB)', largest()],
  ['largest bundle, every script parsed', largest(true)],
];

for (const [name, files] of cases) {
  const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
  for (let i = 0; i < 3; i++) await scanSkill({ files }); // warm-up
  const times: number[] = [];
  const n = name.startsWith('largest') ? Math.max(10, Math.floor(runs / 5)) : runs;
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await scanSkill({ files });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(1);
  console.log(
    `${name}: ${(bytes / 1024).toFixed(0)} KiB, ${n} runs: p50 ${q(0.5)} ms, p99 ${q(0.99)} ms, max ${q(1)} ms`,
  );
}
