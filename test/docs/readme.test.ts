// The README is a short front door and the docs stay navigable: the README fits in 300 lines, every link
// to a local file (and heading) in the README, SECURITY.md and docs/ leads somewhere, and the product's
// docs describe the registry in their own words, without pointing at notes outside the repository.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = join(ROOT, 'docs');
const read = (file: string) => readFileSync(file, 'utf8');
const FILES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'SECURITY.md'),
  ...readdirSync(DOCS)
    .filter((f) => f.endsWith('.md'))
    .map((f) => join(DOCS, f)),
];

/** Markdown without its fenced code blocks (their text is code, not links). */
const prose = (text: string) => text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** The targets of inline links and images: `[text](target)`, `![alt](target "title")`. */
function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub makes for a file's headings: lower-cased, punctuation dropped, spaces as hyphens. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const plain = heading!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const slug = plain
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    result.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return result;
}

describe('the README and the docs', () => {
  it('keep the README a short front door: at most 300 lines', () => {
    const lines = read(join(ROOT, 'README.md')).split('\n').length;
    assert.ok(lines <= 300, `README.md has ${lines} lines; move reference material into docs/`);
  });

  it('keep the README sections other documents fill in: Production, and Configuration with its table markers', () => {
    const readme = read(join(ROOT, 'README.md'));
    assert.match(readme, /^## Production$/m);
    assert.match(readme, /^## Configuration$/m);
    const start = readme.indexOf('<!-- config-table:start -->');
    const end = readme.indexOf('<!-- config-table:end -->');
    assert.ok(
      start > readme.indexOf('## Configuration') && end > start,
      'the configuration table sits between its markers',
    );
  });

  it('link only to files and headings that exist', () => {
    const dead: string[] = [];
    for (const file of FILES) {
      for (const target of linkTargets(read(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, …
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const where = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
        const name = `${relative(ROOT, file)} → ${target}`;
        if (!existsSync(where)) {
          dead.push(`${name} (no such file)`);
          continue;
        }
        if (
          anchor !== undefined &&
          where.endsWith('.md') &&
          statSync(where).isFile() &&
          !anchors(read(where)).has(anchor)
        ) {
          dead.push(`${name} (no such heading)`);
        }
      }
    }
    assert.deepEqual(dead, []);
  });

  it('describe the registry in their own words: no notes from outside the repository, no issue numbers', () => {
    const found: string[] = [];
    for (const file of FILES) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const match of line.matchAll(/\b(SPEC\.md|CONTRACT\.md|GUIDE\.md)|\bissues?\s+#?\d+/gi)) {
            found.push(`${relative(ROOT, file)}:${i + 1}: ${match[0]}`);
          }
        });
    }
    assert.deepEqual(found, []);
  });
});
