import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Digest } from '../../src/domain/bundles.js';
import { decodeCursor, encodeCursor, parseSkillUri, skillUri } from '../../src/mcp/skill-uris.js';

describe('skill:// URIs', () => {
  it('put the publisher first and the name last, the publisher percent-encoded', () => {
    assert.equal(skillUri({ agent_id: 'alice', name: 'pdf-tools' }), 'skill://alice/pdf-tools/SKILL.md');
    assert.equal(skillUri({ agent_id: 'ops@team:1', name: 'deploy' }), 'skill://ops%40team%3A1/deploy/SKILL.md');
    assert.equal(
      skillUri({ agent_id: 'alice', name: 'pdf-tools' }, 'references/FORMS.md'),
      'skill://alice/pdf-tools/references/FORMS.md',
    );
  });

  it('read back into publisher, name and file', () => {
    assert.deepEqual(parseSkillUri('skill://ops%40team%3A1/deploy/SKILL.md'), {
      publisher: 'ops@team:1',
      name: 'deploy',
      file: 'SKILL.md',
    });
    assert.deepEqual(parseSkillUri('skill://alice/pdf-tools/references/FORMS.md'), {
      publisher: 'alice',
      name: 'pdf-tools',
      file: 'references/FORMS.md',
    });
  });

  it('refuse what is not a skill file of this registry', () => {
    for (const uri of [
      'skill://index.json',
      'skill://alice/pdf-tools',
      'skill://alice/PDF-Tools/SKILL.md',
      'skill://alice/pdf-tools/../bob/SKILL.md',
      'skill://alice/pdf-tools/a//b',
      'skill://alice/pdf-tools/a%2Fb',
      'skill://alice/pdf-tools/SKILL.md?x=1',
      'skill://%E0%A4%A/pdf-tools/SKILL.md',
      'file:///etc/passwd',
    ]) {
      assert.equal(parseSkillUri(uri), null, uri);
    }
  });

  it('digest as sha256:<hex> and page with opaque cursors', () => {
    assert.equal(sha256Digest('abc'), 'sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(decodeCursor(encodeCursor(40)), 40);
    assert.equal(decodeCursor(undefined), 0);
    assert.equal(decodeCursor('nonsense'), null);
    assert.equal(decodeCursor(Buffer.from('{"offset":-1}').toString('base64url')), null);
  });
});
