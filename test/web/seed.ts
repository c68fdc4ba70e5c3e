// What the web tests browse: two agents, public and private skills (one with a bundle, versions and a
// yanked one), units with verdicts, and a skill and a unit full of hostile markup. Built through the API,
// as agents build it.
import type { FastifyInstance } from 'fastify';
import { call, contributeUnit, register } from '../helpers/app.js';

const b64 = (text: string) => Buffer.from(text).toString('base64');

/** Markup that runs script wherever a renderer, a sanitizer or a template lets it through. */
export const HOSTILE_HTML = [
  '<script>window.__xss = 1; alert(1)</script>',
  '<img src=x onerror="window.__xss = 2; alert(2)">',
  '<svg onload="window.__xss = 3; alert(3)"><circle r=1 /></svg>',
  '<iframe srcdoc="<script>parent.__xss = 4; alert(4)</script>"></iframe>',
  '<a href="javascript:window.__xss=5;alert(5)">raw javascript link</a>',
  '<noscript><p title="</noscript><img src=x onerror=\'window.__xss=6;alert(6)\'>"></noscript>',
  '<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=7;alert(7)">',
  '<form><math><mtext></form><form><mglyph><svg><mtext><style><path id="</style><img onerror=\'window.__xss=8;alert(8)\' src>">',
  '<details open ontoggle="window.__xss=9;alert(9)">x</details>',
  '<object data="javascript:alert(10)"></object><embed src="javascript:alert(11)">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(12)">',
  '<base href="javascript:alert(13)//">',
  '<style>body { display: none }</style>',
].join('\n');

export const HOSTILE_MARKDOWN = [
  '# Hostile <b>heading</b>',
  '',
  HOSTILE_HTML,
  '',
  '[markdown javascript link](javascript:window.__xss=20;alert(20)) [upper](JaVaScRiPt:alert(21))',
  '[entity](jav&#x09;ascript:alert(22)) [data](data:text/html;base64,PHNjcmlwdD5hbGVydCgyMyk8L3NjcmlwdD4=)',
  '[protocol relative](//evil.example/x) [backslash](/\\evil.example) <javascript:alert(24)>',
  '![tracking pixel](https://evil.example/pixel.png "title") ![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMjUpPg==)',
  '',
  '```html" onmouseover="alert(26)',
  '<script>alert(27)</script>',
  '```',
  '',
  '[a fine link](https://example.org/docs)',
].join('\n');

export interface Seeded {
  aliceKey: string;
  bobKey: string;
  /** alice's public skill with a bundle; version 1.1.0 is yanked, 1.0.1 is the latest. */
  pdfSkill: string;
  /** alice's private skill. */
  privateSkill: string;
  hostileSkill: string;
  retryUnit: string;
  hostileUnit: string;
  /** A name only the private skill has, to search for. */
  privateWord: string;
}

export function skillMd(name: string, description: string, body: string, extra = ''): string {
  return `---\nname: ${name}\ndescription: ${description}\n${extra}---\n${body}\n`;
}

async function publish(app: FastifyInstance, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(app, 'POST', '/v1/skills', { key, body });
  if (res.statusCode !== 201) throw new Error(`publish: ${res.statusCode} ${res.body}`);
  return res.json().data.id as string;
}

export async function seed(app: FastifyInstance): Promise<Seeded> {
  const aliceKey = await register(app, 'alice');
  const bobKey = await register(app, 'bob');

  const pdfBody =
    '# Usage\n\n1. Open the PDF.\n2. Run [the script](scripts/extract.py): `python scripts/extract.py report.pdf`.\n\n| Column | Meaning |\n|:--|--:|\n| page | where the table was |\n';
  const pdf = (version: string) =>
    skillMd(
      'pdf-tables',
      'Extract tables from PDF files into CSV.',
      pdfBody,
      `license: MIT\nmetadata:\n  domain: documents\n  tags: pdf, csv\n  version: "${version}"\n`,
    );
  const files = [
    { path: 'scripts/extract.py', content_base64: b64('import sys\nprint("tables from", sys.argv[1])\n') },
  ];
  const pdfSkill = await publish(app, aliceKey, { visibility: 'public', skill_md_content: pdf('1.0.0') });
  await publish(app, aliceKey, { visibility: 'public', skill_md_content: pdf('1.0.1'), files });
  await publish(app, aliceKey, { visibility: 'public', skill_md_content: pdf('1.1.0'), files });
  const yank = await call(app, 'POST', `/v1/skills/${pdfSkill}/versions/1.1.0/yank`, { key: aliceKey });
  if (yank.statusCode !== 200) throw new Error(`yank: ${yank.statusCode} ${yank.body}`);

  const privateWord = 'zanzibarish';
  const privateSkill = await publish(app, aliceKey, {
    visibility: 'private',
    skill_md_content: skillMd(
      'secret-plans',
      `Private ${privateWord} notes for alice only.`,
      '# Secret\n\nOnly alice reads this.',
    ),
  });
  await publish(app, bobKey, {
    visibility: 'public',
    skill_md_content: skillMd(
      'csv-cleaner',
      'Clean CSV files: trim cells, fix encodings, drop empty rows.',
      '# Cleaning\n\nRun it on a CSV.',
      'metadata:\n  domain: documents\n  tags: csv\n',
    ),
  });
  // Not the Agent Skills format: the name is normalised and the given name kept for display.
  const hostileSkill = await publish(app, bobKey, {
    visibility: 'public',
    skill_md_content: skillMd(
      "'Hostile <svg onload=alert(30)> Markup'",
      "'Shows <img src=x onerror=alert(31)> as text, never as markup.'",
      HOSTILE_MARKDOWN,
      'x-unknown-<script>alert(32)</script>: 1\n',
    ),
  });

  const retryUnit = (await contributeUnit(app, aliceKey)).id;
  await contributeUnit(app, aliceKey, {
    title: 'Pin dependency versions in CI',
    type: 'pitfall',
    domain: 'devops',
    content: { description: 'Unpinned versions make builds differ from day to day.', examples: ['npm ci'] },
    tags: ['ci'],
  });
  const hostileUnit = (
    await contributeUnit(app, bobKey, {
      title: '<script>alert(40)</script><img src=x onerror=alert(41)> hostile unit',
      domain: '"><script>alert(42)</script>',
      content: {
        description: HOSTILE_MARKDOWN,
        examples: ['</code></pre><script>window.__xss=43;alert(43)</script>', '<img src=x onerror=alert(44)>'],
      },
      metadata: { source: 'javascript:alert(45)', confidence: 0.5 },
      tags: ['<svg onload=alert(46)>'],
    })
  ).id;
  const verdict = await call(app, 'POST', `/v1/knowledge/${retryUnit}/validate`, {
    key: bobKey,
    body: { valid: true, feedback: '<b>works</b>' },
  });
  if (verdict.statusCode !== 200) throw new Error(`validate: ${verdict.statusCode} ${verdict.body}`);
  return { aliceKey, bobKey, pdfSkill, privateSkill, hostileSkill, retryUnit, hostileUnit, privateWord };
}
