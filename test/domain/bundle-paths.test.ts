// The one rule for bundle paths, shared by publication (checkBundle) and the command line's install: a
// path that some system cannot create, or that makes a tool run the publisher's code, is refused by name.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { installablePaths } from '../../src/domain/bundle-paths.js';
import { checkBundle } from '../../src/domain/bundles.js';

const refusal = (paths: string[]) => {
  const found = installablePaths(paths);
  return found && { index: found.index, rule: found.rule };
};
const file = (path: string) => ({ path, content_base64: Buffer.from('x').toString('base64') });

describe('installablePaths', () => {
  it('accepts ordinary skill layouts', () => {
    assert.equal(
      installablePaths(['scripts/extract.py', 'references/FORMS.md', 'assets/logo.png', 'a/b/c/d.txt', '.gitignore']),
      null,
    );
    assert.equal(
      installablePaths([
        '.husky/pre-commit',
        '.github/workflows/ci.yml',
        '.devcontainer/devcontainer.json',
        '.gitattributes',
      ]),
      null,
    );
    assert.equal(
      installablePaths(['console.md', 'auxiliary/x.md', 'com10.txt', 'nul-check.sh', 'a.b.c', 'skill.md.bak']),
      null,
    );
  });

  it('refuses a file where another path needs a folder, in either order, SKILL.md included', () => {
    assert.deepEqual(refusal(['a', 'a/b']), { index: 1, rule: 'file_folder_clash' });
    assert.deepEqual(refusal(['a/b', 'a']), { index: 1, rule: 'file_folder_clash' });
    assert.deepEqual(refusal(['x/y/z', 'X/Y']), { index: 1, rule: 'file_folder_clash' }, 'letter case does not count');
    assert.deepEqual(refusal(['SKILL.md/x']), { index: 0, rule: 'file_folder_clash' });
    assert.deepEqual(refusal(['skill.MD/x/y']), { index: 0, rule: 'file_folder_clash' });
    assert.match(
      installablePaths(['docs', 'docs/a.md'])!.message,
      /^"docs\/a\.md" needs a folder "docs", but "docs" is a file$/,
    );
  });

  it('refuses names that collide where letter case or Unicode normalization does not count', () => {
    assert.deepEqual(refusal(['A.md', 'a.md']), { index: 1, rule: 'case_collision' });
    assert.deepEqual(refusal(['Dir/x', 'dir/X']), { index: 1, rule: 'case_collision' });
    assert.deepEqual(refusal(['skill.md']), { index: 0, rule: 'case_collision' });
    assert.deepEqual(refusal(['STRASSE.md', 'straße.md']), { index: 1, rule: 'case_collision' });
  });

  it("refuses Windows' reserved device names, with any extension and in any folder", () => {
    for (const name of [
      'CON',
      'con.txt',
      'PRN.md',
      'aux',
      'NUL.tar.gz',
      'COM1',
      'com9.py',
      'LPT3.txt',
      'COM\u00B9',
      'CONIN$',
      'conout$.log',
    ]) {
      assert.deepEqual(refusal([`dir/${name}`]), { index: 0, rule: 'reserved_name' }, name);
    }
  });

  it('refuses names ending in a dot or a space, and names longer than 255 bytes', () => {
    assert.deepEqual(refusal(['x.']), { index: 0, rule: 'trailing_dot' });
    assert.deepEqual(refusal(['dir./x']), { index: 0, rule: 'trailing_dot' });
    assert.deepEqual(refusal(['...']), { index: 0, rule: 'trailing_dot' });
    assert.deepEqual(refusal(['x ']), { index: 0, rule: 'trailing_dot' });
    assert.equal(refusal(['é'.repeat(127)]), null, '254 bytes');
    assert.deepEqual(refusal(['é'.repeat(128)]), { index: 0, rule: 'name_too_long' });
    assert.deepEqual(refusal([`d/${'日'.repeat(86)}.md`]), { index: 0, rule: 'name_too_long' });
  });

  it('refuses version-control metadata anywhere, in any letter case, and its Windows short name', () => {
    for (const path of [
      '.git/config',
      '.git',
      'scripts/.git/hooks/post-checkout',
      '.GIT/config',
      'Git~1/config',
      '.hg/hgrc',
      '.svn/entries',
      '.bzr/x',
      '_darcs/prefs/defaults',
      'CVS/Root',
      '.jj/repo/config.toml',
      '.sl/config',
      '.pijul/config',
      '.fslckout',
      '_FOSSIL_',
    ]) {
      assert.deepEqual(refusal([path]), { index: 0, rule: 'vcs_metadata' }, path);
    }
    assert.match(installablePaths(['.git/config'])!.message, /^"\.git\/config" is version-control metadata \(\.git\)/);
  });

  it('refuses tool configuration that runs code, and nothing beside it', () => {
    for (const path of [
      '.envrc',
      'sub/.envrc',
      '.vscode/tasks.json',
      '.vscode/settings.json',
      '.idea/workspace.xml',
      '.claude/settings.json',
      'x/.Claude/settings.local.json',
    ]) {
      assert.deepEqual(refusal([path]), { index: 0, rule: 'tool_config' }, path);
    }
    assert.equal(
      refusal(['.claude/commands/review.md', 'claude/settings.json', 'settings.json', '.envrc.example']),
      null,
    );
  });
});

describe('checkBundle', () => {
  it('names the file, its index and the rule in every path refusal', () => {
    const cases: [string[], RegExp][] = [
      [
        ['ok.md', 'CON.md'],
        /^files\.1\.path "CON\.md" uses "CON\.md", a device name Windows reserves in every folder \(rule reserved_name\)$/,
      ],
      [['a', 'a/b'], /^files\.1\.path "a\/b" needs a folder "a", but "a" is a file \(rule file_folder_clash\)$/],
      [['.git/config'], /^files\.0\.path "\.git\/config" is version-control metadata .* \(rule vcs_metadata\)$/],
      [['x.'], /^files\.0\.path "x\." has a name ending in a dot or space .* \(rule trailing_dot\)$/],
      [['../x'], /^files\.0\.path must not contain \.\. \(rule path_syntax\)$/],
      [
        ['SKILL.md'],
        /^files\.0\.path "SKILL\.md" collides with SKILL\.md \(SKILL\.md is given as skill_md_content, not as a file\) \(rule case_collision\)$/,
      ],
    ];
    for (const [paths, message] of cases) {
      const checked = checkBundle(paths.map(file));
      assert.equal(checked.ok, false, paths.join(' '));
      if (!checked.ok) assert.match(checked.message, message);
    }
    const clash = checkBundle(['a/b', './A'].map(file));
    assert.deepEqual(clash.ok ? null : clash.field, 'files.1.path', 'the path is checked in its normal form');
  });
});
