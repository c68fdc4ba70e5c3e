// Publication refuses bundle paths that cannot be installed everywhere, or that would make a tool run the
// publisher's code in the installed folder (src/domain/bundle-paths.ts, installablePaths): 400 naming the file
// and the rule, and nothing is stored.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, register, testApp, type TestApp } from '../helpers/app.js';

const md = (name: string) => `---\nname: ${name}\ndescription: Extract tables from PDF files.\n---\nRun it.\n`;
const file = (path: string) => ({ path, content_base64: Buffer.from('x').toString('base64') });

describe('bundle paths at publication', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await testApp(openSqliteStore('sqlite::memory:'));
    key = await register(t.app, 'publisher');
  });
  after(async () => t.close());

  it('refuses paths that cannot be installed, or that run code, naming the file and the rule', async () => {
    const cases: [string[], RegExp][] = [
      [['a', 'a/b'], /^files\.1\.path "a\/b" needs a folder "a", but "a" is a file \(rule file_folder_clash\)$/],
      [
        ['SKILL.md/x'],
        /^files\.0\.path "SKILL\.md\/x" needs a folder "SKILL\.md", but "SKILL\.md" is a file \(rule file_folder_clash\)$/,
      ],
      [
        ['docs/CON'],
        /^files\.0\.path "docs\/CON" uses "CON", a device name Windows reserves in every folder \(rule reserved_name\)$/,
      ],
      [['x.'], /\(rule trailing_dot\)$/],
      [['A.md', 'a.md'], /^files\.1\.path "a\.md" collides with "A\.md" \(rule case_collision\)$/],
      [
        ['.git/config', 'x.md'],
        /^files\.0\.path "\.git\/config" is version-control metadata \(\.git\).*\(rule vcs_metadata\)$/,
      ],
      [['.hg/hgrc'], /\(rule vcs_metadata\)$/],
      [
        ['.envrc'],
        /^files\.0\.path "\.envrc" is tool configuration that runs code \(\.envrc: direnv .*\(rule tool_config\)$/,
      ],
      [['.vscode/tasks.json'], /\(rule tool_config\)$/],
    ];
    for (const [paths, message] of cases) {
      const res = await call(t.app, 'POST', '/v1/skills', {
        key,
        body: { skill_md_content: md('paths'), visibility: 'public', files: paths.map(file) },
      });
      assert.equal(res.statusCode, 400, paths.join(' '));
      assert.equal(res.json().error.code, 'VALIDATION_ERROR');
      assert.match(res.json().error.message, message, paths.join(' '));
    }
    assert.equal(
      (await call(t.app, 'GET', '/v1/skills?name=paths&publisher=publisher')).json().total,
      0,
      'nothing was stored',
    );
    const fine = await call(t.app, 'POST', '/v1/skills', {
      key,
      body: {
        skill_md_content: md('paths'),
        visibility: 'public',
        files: ['.github/workflows/ci.yml', '.husky/pre-commit', 'a/b', 'c.md'].map(file),
      },
    });
    assert.equal(fine.statusCode, 201, fine.body);
  });
});
