// The same search finds the same things on SQLite (FTS5) and PostgreSQL (tsvector): identical totals and
// identical sets of ids, for stop words, accents, words joined by punctuation and stems. Relevance order
// may differ (bm25 against ts_rank_cd); the tie-break order (quality, newest, id) may not.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KnowledgeUnit } from '../../src/domain/model.js';
import { newSkillPlan } from '../../src/service/skills.js';
import { textFilter } from '../../src/domain/search.js';
import { SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/store.js';
import { openPostgres, postgresUrl } from '../helpers/backends.js';

const url = postgresUrl();
const at = (n: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0, n)).toISOString();

// [id, title, description, examples, tags, quality]
const UNITS: [string, string, string, string[], string[], number][] = [
  ['u01', 'Run the tests', 'We run things.', [], [], 0.5],
  ['u02', 'Running fast', 'Runners keep running.', [], [], 0.5],
  ['u03', 'Use node.js streams', 'See example.com/path, foo-bar and user@example.com', [], [], 0.5],
  ['u04', 'Café naïve résumé', 'Accents here.', [], [], 0.5],
  ['u05', 'The the the', 'Only stop words: the a an of', [], [], 0.5],
  ['u06', 'Same words', 'same', [], [], 0.7],
  ['u07', 'Same words', 'same', [], [], 0.7],
  ['u08', 'Same words', 'same', [], [], 0.9],
  ['u09', 'Release v2', 'version 1.2.3 and 42', ['C:\\tools\\bin', 'say "quoted"\nnext line'], ['semver', 'api_design'], 0.5],
  ['u10', 'Unrelated', 'Nothing to see.', [], ['misc'], 0.5],
  ['u11', 'Kubernetes operators', 'Deploy things.', [], [], 0.5],
  ['u12', 'Deploy guide', 'How kubernetes works.', [], [], 0.9],
];

// [id, name, description, tags, body]
const SKILLS: [string, string, string, string[], string][] = [
  ['s1', 'pdf-tools', 'Extract text from PDF files.', ['pdf', 'cli'], 'Run pdftotext; the output is UTF-8.'],
  ['s2', 'git-helper', 'Work with git repositories.', ['git'], 'Use git@github.com:org/repo.git and run tests.'],
  ['s3', 'cafe-finder', 'Find a café nearby.', ['maps'], 'Nothing here.'],
];

// query → the ids both backends must find
const UNIT_QUERIES: [string, string[]][] = [
  ['the', ['u01', 'u05']], // stop words are ordinary words
  ['same', ['u06', 'u07', 'u08']],
  ['a of', ['u05']],
  ['the running', ['u01', 'u02', 'u05']], // any word matches
  ['cafe', ['u04']], // accents folded, on both sides
  ['café', ['u04']],
  ['naive resume', ['u04']],
  ['CAFÉ', ['u04']],
  ['node', ['u03']], // punctuation splits words
  ['js', ['u03']],
  ['node.js', ['u03']],
  ['example com', ['u03']],
  ['user', ['u03']],
  ['path', ['u03']],
  ['foo', ['u03']],
  ['foobar', []],
  ['1', ['u09']],
  ['3', ['u09']],
  ['1.2.3', ['u09']],
  ['42', ['u09']],
  ['v2', ['u09']],
  ['tools bin', ['u09']], // inside examples
  ['quoted next', ['u09']],
  ['n', []], // a JSON escape (\n) leaves no letter behind
  ['api design', ['u09']], // inside tags
  ['run', ['u01', 'u02']], // stems
  ['runs', ['u01', 'u02']],
  ['running', ['u01', 'u02']],
  ['runner', ['u02']],
  ['fast run', ['u01', 'u02']],
  ['runn', []],
];

const SKILL_QUERIES: [string, string[]][] = [
  ['the', ['s1']],
  ['utf', ['s1']],
  ['github com', ['s2']],
  ['org repo', ['s2']],
  ['cafe', ['s3']],
  ['tests', ['s2']],
  ['running', ['s1', 's2']],
  ['pdf', ['s1']],
];

async function fill(store: Store): Promise<void> {
  await store.createAgentWithKey({
    agentId: 'searcher', keyHash: 'f'.repeat(64), keyPrefix: 'reg_srch', scopes: ['read'], tier: 'free', createdAt: at(0),
  });
  let n = 0;
  for (const [id, title, description, examples, tags, quality] of UNITS) {
    n++;
    const unit: KnowledgeUnit = {
      id, agent_id: 'searcher', title, type: 'fact', domain: 'search', content: { description, examples },
      metadata: { source: 'test', confidence: 0.5 }, tags, quality_score: quality, validations: { valid: 0, invalid: 0 },
      created_at: at(n), updated_at: at(n),
    };
    await store.contributeUnit(unit, quality, 200);
  }
  for (const [id, name, description, tags, body] of SKILLS) {
    n++;
    const skillMd = `---\nname: ${name}\ndescription: ${JSON.stringify(description)}\nmetadata:\n  tags: ${JSON.stringify(tags.join(', '))}\n---\n${body}`;
    await store.publishSkill(newSkillPlan({ skill_md_content: skillMd, visibility: 'public', skillId: id, agentId: 'searcher', at: at(n) }));
  }
}

describe('search finds the same on SQLite and PostgreSQL', { skip: url ? false : 'REG_TEST_DATABASE_URL is not set' }, () => {
  let sqlite: Store;
  let postgres: Store;
  before(async () => {
    sqlite = new SqliteStore('sqlite::memory:');
    postgres = await openPostgres(url!);
    await fill(sqlite);
    await fill(postgres);
  });
  after(async () => {
    await sqlite.close();
    await postgres.close();
  });

  const units = (store: Store, q: string, limit = 50, offset = 0) =>
    store.listUnits({ terms: textFilter(q)!, types: [], limit, offset });

  for (const [q, expected] of UNIT_QUERIES) {
    it(`units: ${JSON.stringify(q)} finds ${expected.join(', ') || 'nothing'}`, async () => {
      for (const store of [sqlite, postgres]) {
        const page = await units(store, q);
        assert.deepEqual([page.total, page.items.map((u) => u.id).sort()], [expected.length, expected], store.backend);
      }
    });
  }

  for (const [q, expected] of SKILL_QUERIES) {
    it(`skills: ${JSON.stringify(q)} finds ${expected.join(', ')}`, async () => {
      for (const store of [sqlite, postgres]) {
        const page = await store.listSkills({
          terms: textFilter(q)!, tags: [], limit: 50, offset: 0, viewer: { agentId: null, everything: false },
        });
        assert.deepEqual([page.total, page.items.map((s) => s.id).sort()], [expected.length, expected], store.backend);
      }
    });
  }

  it('breaks ties between equally relevant matches by quality, then newest, then id, on both', async () => {
    for (const store of [sqlite, postgres]) {
      assert.deepEqual((await units(store, 'same')).items.map((u) => u.id), ['u08', 'u07', 'u06'], store.backend);
      const pages = [await units(store, 'same', 2, 0), await units(store, 'same', 2, 2)];
      assert.deepEqual(pages.map((p) => [p.total, p.items.map((u) => u.id)]), [[3, ['u08', 'u07']], [3, ['u06']]], store.backend);
    }
  });

  it('ranks a match in the title above a better-scored match in the description, on both', async () => {
    for (const store of [sqlite, postgres]) {
      assert.deepEqual((await units(store, 'kubernetes')).items.map((u) => u.id), ['u11', 'u12'], store.backend);
    }
  });
});
