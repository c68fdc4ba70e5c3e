// Real-world SKILL.md shapes: test/fixtures/skill-md/*.md, each written for this test to reproduce a shape
// found in public skill collections (values that are not valid YAML, names outside the pattern, fields
// the format does not define, ...), with its expected outcome in cases.json. Add a shape by adding a file
// and its line in cases.json.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { parseSkillMd, type SkillDocument } from '../../src/domain/skill-md.js';

const DIR = fileURLToPath(new URL('../fixtures/skill-md/', import.meta.url));

type Case = { file: string; rule?: string; conformant?: boolean; warnings?: string[] } & Partial<SkillDocument>;
const cases = JSON.parse(readFileSync(join(DIR, 'cases.json'), 'utf8')) as Case[];

describe('real-world SKILL.md shapes', () => {
  it('has an expected outcome for every fixture', () => {
    const files = readdirSync(DIR)
      .filter((f) => f.endsWith('.md'))
      .sort();
    assert.deepEqual(cases.map((c) => c.file).sort(), files);
    assert.ok(cases.length >= 36, 'a few dozen shapes');
  });

  for (const { file, rule, conformant, warnings, ...fields } of cases) {
    it(file, () => {
      const result = parseSkillMd(readFileSync(join(DIR, file), 'utf8'));
      if (rule) {
        assert.equal(result.ok, false, `expected rule ${rule}`);
        if (result.ok) return;
        assert.equal(result.rule, rule, result.message);
        assert.ok(result.message.endsWith(`(rule ${rule})`), result.message);
        return;
      }
      assert.equal(result.ok, true, result.ok ? '' : result.message);
      if (!result.ok) return;
      assert.deepEqual(
        result.warnings.map((w) => w.kind),
        warnings,
        JSON.stringify(result.warnings, null, 1),
      );
      assert.equal(result.conformant, conformant);
      for (const [key, value] of Object.entries(fields)) {
        assert.deepEqual(result.skill[key as keyof SkillDocument], value, `${file}: ${key}`);
      }
      // The slug is always conformant, and every warning says what to do on one line.
      assert.match(result.skill.name, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      for (const w of result.warnings) assert.equal(w.message.includes('\n'), false, w.message);
    });
  }
});

describe('the SKILL.md examples of the docs', () => {
  const api = readFileSync(fileURLToPath(new URL('../../docs/api.md', import.meta.url)), 'utf8');

  it('the walk-through of docs/api.md contributes a conformant skill, without warnings', () => {
    const body = /-d '(\{"visibility":"public","skill_md_content":.*\})' \| tee \/tmp\/skill\.json/.exec(api)?.[1];
    assert.ok(body, 'the walk-through posts a skill');
    const result = parseSkillMd((JSON.parse(body) as { skill_md_content: string }).skill_md_content);
    assert.ok(result.ok && result.conformant && result.warnings.length === 0, JSON.stringify(result));
    assert.deepEqual([result.skill.domain, result.skill.tags], ['documents', ['pdf', 'csv']]);
  });

  it('the frontmatter shown under "SKILL.md rules" is conformant', () => {
    const section = api.slice(api.indexOf('## SKILL.md rules'));
    const yaml = /```yaml\n(---\n[\s\S]*?\n---\n)```/.exec(section)?.[1];
    assert.ok(yaml, 'the section shows a frontmatter');
    const result = parseSkillMd(`${yaml}# Usage\n\nRun it.\n`);
    assert.ok(result.ok && result.conformant && result.warnings.length === 0, JSON.stringify(result));
    assert.equal(result.skill.version, '1.2.0');
  });

  it('the example skill in examples/ is conformant, without warnings', () => {
    const md = readFileSync(
      fileURLToPath(new URL('../../examples/skills/pdf-tools/SKILL.md', import.meta.url)),
      'utf8',
    );
    const result = parseSkillMd(md);
    assert.ok(result.ok && result.conformant && result.warnings.length === 0, JSON.stringify(result));
    assert.deepEqual(
      [result.skill.name, result.skill.domain, result.skill.version],
      ['pdf-tools', 'documents', '1.0.0'],
    );
  });
});
