// The README's configuration table is the one generated from the declared variables: a variable added,
// removed or re-documented without `npm run docs:config` fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { configTable, withConfigTable } from '../../src/config/table.js';
import { VARIABLES } from '../../src/config/variables.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('the configuration table', () => {
  it('in the README is the one generated from the declared variables (run npm run docs:config)', () => {
    assert.equal(README, withConfigTable(README));
  });

  it('has a row for every declared variable, with its documentation', () => {
    const table = configTable();
    for (const [name, variable] of Object.entries(VARIABLES)) {
      assert.ok(table.includes(`| \`${name}\` |`), name);
      assert.ok(
        variable.doc.trim().length > 0 && !variable.doc.includes('\n'),
        `${name} has one line of documentation`,
      );
    }
  });
});
