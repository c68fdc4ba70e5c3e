import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KnowledgeUnitInput } from '../../src/domain/model.js';
import { skillQuality, unitBaseQuality, unitQuality } from '../../src/domain/quality.js';

const unit = (overrides: Partial<KnowledgeUnitInput> = {}): KnowledgeUnitInput => ({
  title: 't',
  type: 'fact',
  domain: 'd',
  content: { description: 'x'.repeat(250), examples: ['a'] },
  metadata: { source: 'a book', confidence: 0.5 },
  tags: [],
  ...overrides,
});

describe('unit quality', () => {
  it('follows the documented formula', () => {
    // 0.3·0.5 + 0.25·(1/3) + 0.15·0.5 + 0.2·0.5 + 0.1·0
    assert.equal(unitBaseQuality(unit()), 0.4083);
    const full = unit({
      content: { description: 'x'.repeat(600), examples: ['a', 'b', 'c', 'd'] },
      metadata: { source: 'https://example.org', confidence: 1 },
      tags: ['a', 'b', 'c'],
    });
    assert.equal(unitBaseQuality(full), 1);
    const empty = unit({ content: { description: 'x', examples: [] }, metadata: { source: 's', confidence: 0 } });
    assert.equal(unitBaseQuality(empty), 0.0756);
  });

  it('rises with valid verdicts and falls with invalid ones, staying in [0, 1]', () => {
    assert.equal(unitQuality(0.5, 0, 0), 0.5);
    assert.equal(unitQuality(0.5, 1, 0), 0.6);
    assert.equal(unitQuality(0.5, 0, 1), 0.4);
    assert.ok(unitQuality(0.5, 2, 0) > unitQuality(0.5, 1, 0));
    assert.equal(unitQuality(1, 0, 0), 1);
    assert.equal(unitQuality(1, 5, 0), 1);
    assert.equal(unitQuality(0, 0, 5), 0);
    assert.ok(unitQuality(0.9, 1000, 0) > 0.99);
    assert.ok(unitQuality(0.9, 0, 1000) < 0.01);
  });
});

describe('skill quality', () => {
  const base = { description: 'd'.repeat(200), body: '', license: null, domain: null, tags: [], warnings: 0 };
  it('rewards a full description, body, structure and metadata', () => {
    assert.equal(skillQuality(base), 0.25);
    const full = {
      ...base,
      body: `# Title\n\n- item\n\n${'word '.repeat(300)}`,
      license: 'MIT',
      domain: 'x',
      tags: ['a', 'b', 'c'],
    };
    assert.equal(skillQuality(full), 1);
  });

  it('takes 0.05 per warning, at most 0.25', () => {
    assert.equal(skillQuality({ ...base, warnings: 1 }), 0.2);
    assert.equal(skillQuality({ ...base, warnings: 20 }), 0);
  });
});
