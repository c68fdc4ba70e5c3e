// The served OpenAPI document passes Redocly's recommended rules and Spectral's oas rules: no errors, and
// only the warnings the config files list with their reasons.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lintOpenApi, servedDocument } from '../helpers/openapi-lint.js';

describe('the OpenAPI document, linted', () => {
  it('has no Redocly or Spectral errors, and only the warnings redocly.yaml and .spectral.yaml explain', async () => {
    const problems = await lintOpenApi(await servedDocument());
    const errors = problems.filter((p) => p.severity === 'error');
    assert.deepEqual(errors, [], 'lint errors');
    const warnings = problems.map((p) => `${p.tool} ${p.rule} ${p.where}`).sort();
    assert.deepEqual(warnings, [
      'redocly operation-4xx-response #/paths/~1healthz/get/responses',
      'redocly operation-4xx-response #/paths/~1readyz/get/responses',
      'spectral oas3-examples-value-or-externalValue components.schemas.KnowledgeUnit.properties.content.properties.examples.items',
      'spectral oas3-examples-value-or-externalValue components.schemas.KnowledgeUnitInput.properties.content.properties.examples.items',
      'spectral oas3-examples-value-or-externalValue components.schemas.KnowledgeUnitSummary.properties.content.properties.examples.items',
    ]);
  });
});
