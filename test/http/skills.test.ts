import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import {
  call,
  contributeSkill,
  errorCode,
  register,
  skillMd,
  testApp,
  testConfig,
  type TestApp,
} from '../helpers/app.js';

for (const backend of backends()) {
  describe(`skills [${backend.name}]`, () => {
    let t: TestApp;
    let owner: string;
    let other: string;
    let admin: string;
    before(async () => {
      t = await testApp(await backend.open(), { config: testConfig({ openAdminRegistration: true }) });
      owner = await register(t.app, 'skill-owner');
      other = await register(t.app, 'skill-other');
      admin = await register(t.app, 'skill-admin', ['read', 'admin']);
    });
    after(async () => t.close());

    it('contributes a SKILL.md and returns the parsed skill with warnings', async () => {
      const content = skillMd({
        name: 'csv-cleaner',
        description: 'Clean CSV files.',
        domain: 'data',
        tags: 'csv, cleaning',
        author: 'me',
      });
      const res = await call(t.app, 'POST', '/v1/skills', {
        key: owner,
        body: { skill_md_content: content, visibility: 'public' },
      });
      assert.equal(res.statusCode, 201, res.body);
      const { data, warnings } = res.json();
      assert.match(data.id, /^sk_[A-Za-z0-9_-]{22}$/);
      assert.equal(data.name, 'csv-cleaner');
      assert.equal(data.description, 'Clean CSV files.');
      assert.equal(data.domain, 'data');
      assert.deepEqual(data.tags, ['csv', 'cleaning']);
      assert.equal(data.license, null);
      assert.equal(data.visibility, 'public');
      assert.equal(data.agent_id, 'skill-owner');
      assert.equal(data.skill_md_content, content);
      assert.ok(data.quality_score > 0 && data.quality_score <= 1);
      assert.ok(
        warnings.some((w: string) => w.includes('author')),
        JSON.stringify(warnings),
      );
      const got = await call(t.app, 'GET', `/v1/skills/${data.id}`);
      assert.deepEqual(got.json(), { data });
      const profile = (await call(t.app, 'GET', '/v1/reputation/skill-owner')).json().data;
      assert.equal(profile.score, 0.1);
      assert.equal(profile.history[0].action, 'contribute_skill');
    });

    it('refuses content that is not a valid SKILL.md, naming the rule', async () => {
      const cases: [unknown, RegExp][] = [
        [{ skill_md_content: 'no frontmatter here', visibility: 'public' }, /frontmatter/],
        // Issue 11: a name outside the pattern is slugged (accepted with a warning); one with nothing to slug is refused.
        [{ skill_md_content: skillMd({ name: '数据' }), visibility: 'public' }, /frontmatter\.name/],
        [{ skill_md_content: skillMd({ description: '""' }), visibility: 'public' }, /frontmatter\.description/],
        [{ skill_md_content: '---\nname: [unclosed\n---\n', visibility: 'public' }, /skill_md_content/],
        [{ skill_md_content: skillMd(), visibility: 'secret' }, /^visibility must be one of public, private/],
        [{ skill_md_content: skillMd() }, /^visibility is required/],
        [{ skill_md_content: 'x'.repeat(100_001), visibility: 'public' }, /^skill_md_content /],
        [{ visibility: 'public' }, /^skill_md_content is required/],
      ];
      for (const [body, message] of cases) {
        const res = await call(t.app, 'POST', '/v1/skills', { key: owner, body });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(errorCode(res), 'VALIDATION_ERROR');
        assert.match(res.json().error.message, message);
      }
      const reader = await register(t.app, 'skill-reader', ['read']);
      const forbidden = await call(t.app, 'POST', '/v1/skills', {
        key: reader,
        body: { skill_md_content: skillMd(), visibility: 'public' },
      });
      assert.equal(forbidden.statusCode, 403);
      const anonymous = await call(t.app, 'POST', '/v1/skills', {
        body: { skill_md_content: skillMd(), visibility: 'public' },
      });
      assert.equal(anonymous.statusCode, 401);
    });

    it('keeps private skills invisible to everyone but their contributor and admins', async () => {
      const secret = await contributeSkill(
        t.app,
        owner,
        { name: 'secret-sauce', description: 'Private recipe xylophone.' },
        'private',
      );
      assert.equal((await call(t.app, 'GET', `/v1/skills/${secret.id}`)).statusCode, 404);
      assert.equal((await call(t.app, 'GET', `/v1/skills/${secret.id}`, { key: other })).statusCode, 404);
      assert.equal((await call(t.app, 'GET', `/v1/skills/${secret.id}`, { key: owner })).statusCode, 200);
      assert.equal((await call(t.app, 'GET', `/v1/skills/${secret.id}`, { key: admin })).statusCode, 200);

      const search = (who?: string) => call(t.app, 'GET', '/v1/skills?q=xylophone', { key: who }).then((r) => r.json());
      assert.deepEqual(await search(), { data: [], total: 0, offset: 0, limit: 20, capped: false });
      assert.equal((await search(other)).total, 0);
      assert.equal((await search(owner)).total, 1);
      assert.equal((await search(admin)).total, 1);
      const anonymousTotal = (await call(t.app, 'GET', '/v1/skills')).json().total;
      const ownerTotal = (await call(t.app, 'GET', '/v1/skills', { key: owner })).json().total;
      assert.equal(ownerTotal, anonymousTotal + 1, 'totals leave private skills out too');
    });

    it('filters by domain, tags (all of them, any case) and minimum quality, and searches the body', async () => {
      await contributeSkill(t.app, other, {
        name: 'git-helper',
        description: 'Git chores.',
        domain: 'devops',
        tags: 'git, cli',
      });
      await contributeSkill(
        t.app,
        other,
        { name: 'k8s-helper', description: 'Kubernetes chores.', domain: 'devops', tags: 'k8s, CLI' },
        'public',
        '# Deploy\n\nRoll out a quetzal deployment.\n',
      );
      const devops = (await call(t.app, 'GET', '/v1/skills?domain=devops')).json();
      assert.equal(devops.total, 2);
      const cli = (await call(t.app, 'GET', '/v1/skills?tags=cli')).json();
      assert.equal(cli.total, 2);
      const both = (await call(t.app, 'GET', '/v1/skills?tags=CLI,git')).json();
      assert.deepEqual(
        both.data.map((s: { name: string }) => s.name),
        ['git-helper'],
      );
      const body = (await call(t.app, 'GET', '/v1/skills?q=quetzal')).json();
      assert.deepEqual(
        body.data.map((s: { name: string }) => s.name),
        ['k8s-helper'],
      );
      const byName = (await call(t.app, 'GET', '/v1/skills?q=helper')).json();
      assert.equal(byName.total, 2, 'hyphenated names are searchable by their parts');
      const qualities = (await call(t.app, 'GET', '/v1/skills?limit=100'))
        .json()
        .data.map((s: { quality_score: number }) => s.quality_score);
      const floor = qualities[1] as number;
      const good = (await call(t.app, 'GET', `/v1/skills?min_quality=${floor}`)).json();
      assert.equal(good.total, qualities.filter((q: number) => q >= floor).length);
      assert.ok(good.total >= 2 && good.data.length === good.total);
      assert.ok(good.data.every((s: { quality_score: number }) => s.quality_score >= floor));
      const tooMany = await call(
        t.app,
        'GET',
        `/v1/skills?tags=${Array.from({ length: 21 }, (_, i) => `t${i}`).join(',')}`,
      );
      assert.equal(tooMany.statusCode, 400);
    });
  });
}
