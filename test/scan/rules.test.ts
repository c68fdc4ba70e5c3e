// Every rule of the rule set proves itself on its own examples: each positive example is found by the rule,
// no negative example is. The rule set's shape is checked when it loads (families, severities, regexes).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ruleSet, scanSkill, SCANNER } from '../../src/scan/index.js';
import type { Example, ExampleFile, Rule } from '../../src/scan/rules.js';

const SKILL_MD = '---\nname: example\ndescription: An example skill.\n---\n# Example\n\nUse it.\n';

/** Where a bare example string goes, by the rule's first scope. */
function defaultPath(rule: Rule): string {
  if (rule.scopes[0] === 'code') return 'scripts/example.py';
  if (rule.scopes[0] === 'prose' || rule.scopes[0] === 'comment') return 'SKILL.md';
  return 'scripts/example.sh';
}

function filesOf(rule: Rule, example: Example): { path: string; bytes: Uint8Array }[] {
  const list: ExampleFile[] =
    typeof example === 'string'
      ? [{ path: defaultPath(rule), content: example }]
      : Array.isArray(example)
        ? example
        : [example];
  const files = list.map((f) => ({
    path: f.path,
    bytes:
      f.content_base64 !== undefined ? Buffer.from(f.content_base64, 'base64') : Buffer.from(f.content ?? '', 'utf8'),
  }));
  if (!files.some((f) => f.path === 'SKILL.md')) files.unshift({ path: 'SKILL.md', bytes: Buffer.from(SKILL_MD) });
  return files;
}

describe('the rule set', () => {
  const rules = ruleSet();

  it('is named and versioned, and every verdict names it', () => {
    assert.equal(SCANNER, `${rules.name}/${rules.version}`);
    assert.match(SCANNER, /^[a-z-]+\/\d+$/);
  });

  it('covers every family the contract names', () => {
    const families = new Set(rules.rules.map((r) => r.family));
    for (const family of [
      'remote-code-execution',
      'obfuscated-execution',
      'credential-access',
      'exfiltration',
      'reverse-shell',
      'persistence',
      'destructive-command',
      'executable-binary',
      'nested-archive',
      'prompt-injection',
      'hidden-instructions',
      'agent-safety-bypass',
      'malicious-dependency',
    ])
      assert.ok(families.has(family), family);
  });

  for (const rule of rules.rules) {
    it(`${rule.id}: finds its positive examples and none of its negative ones`, async () => {
      for (const example of rule.examples.positive) {
        const { findings } = await scanSkill({ files: filesOf(rule, example) });
        assert.ok(
          findings.some((f) => f.rule === rule.id),
          `${rule.id} missed ${JSON.stringify(example)}; found ${JSON.stringify(findings.map((f) => f.rule))}`,
        );
      }
      for (const example of rule.examples.negative) {
        const { findings } = await scanSkill({ files: filesOf(rule, example) });
        const hit = findings.find((f) => f.rule === rule.id);
        assert.equal(hit, undefined, `${rule.id} flagged ${JSON.stringify(example)}: ${JSON.stringify(hit)}`);
      }
    });
  }
});
