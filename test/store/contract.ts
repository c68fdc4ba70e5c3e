// The store contract: every backend must pass these cases. A backend is correct when it passes them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { KnowledgeUnit } from '../../src/domain/model.js';
import { visibleTo } from '../../src/domain/access.js';
import { sha256Digest, versionDigest } from '../../src/domain/bundles.js';
import semver from 'semver';
import { isRelease, latestVersion, versionSortKey } from '../../src/domain/versions.js';
import { newSkillPlan } from '../../src/service/skill-publish.js';
import { plannedSkill } from '../../src/store/skill-rows.js';
import { unitQuality } from '../../src/domain/quality.js';
import { decideVerdict } from '../../src/domain/verdicts.js';
import { migrations as postgresMigrations } from '../../src/store/postgres/migrations/index.js';
import { migrations as sqliteMigrations } from '../../src/store/sqlite/migrations/index.js';
import {
  AgentExistsError,
  IdempotencyKeyTakenError,
  PrefixTakenError,
  PublishRaceError,
  UnstorableTextError,
  VersionLimitError,
  type IdempotentResponse,
  type NewKey,
  type SkillPlan,
  type Store,
} from '../../src/store/store.js';
import type { Backend } from '../helpers/backends.js';
import { skillQuery, unitQuery } from '../helpers/lists.js';

let counter = 0;
const at = (n: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, 0, n)).toISOString();

function newKey(agentId: string, overrides: Partial<NewKey> = {}): NewKey {
  counter++;
  return {
    agentId,
    keyHash: counter.toString(16).padStart(64, '0'),
    keyPrefix: `reg_${counter.toString(36).padStart(4, '0')}`,
    scopes: ['read', 'write'],
    tier: 'free',
    createdAt: at(counter),
    ...overrides,
  };
}

function unit(agentId: string, overrides: Partial<KnowledgeUnit> = {}): KnowledgeUnit {
  counter++;
  return {
    id: `ku_${counter}`,
    agent_id: agentId,
    title: `Unit ${counter}`,
    type: 'pattern',
    domain: 'testing',
    content: { description: 'A description.', examples: ['one', 'two'] },
    metadata: { source: 'contract', confidence: 0.5 },
    tags: ['alpha'],
    quality_score: 0.5,
    validations: { valid: 0, invalid: 0 },
    created_at: at(counter),
    updated_at: at(counter),
    ...overrides,
  };
}

interface SkillFields {
  name?: string;
  description?: string;
  tags?: string[];
  visibility?: 'public' | 'private';
  body?: string;
  version?: string;
}

/** The plan of a new skill, made from a SKILL.md as a publication makes it. */
function skill(agentId: string, fields: SkillFields = {}): SkillPlan {
  counter++;
  const {
    name = `skill-${counter}`,
    description = 'Does a thing.',
    tags = ['Cli'],
    visibility = 'public',
    body = 'body',
    version,
  } = fields;
  const metadata = [
    `  domain: tools`,
    `  tags: ${JSON.stringify(tags.join(', '))}`,
    ...(version ? [`  version: "${version}"`] : []),
  ];
  const skillMd = `---\nname: ${name}\ndescription: ${description}\nmetadata:\n${metadata.join('\n')}\n---\n${body}\n`;
  return newSkillPlan({ skill_md_content: skillMd, visibility, skillId: `sk_${counter}`, agentId, at: at(counter) });
}

/** The next plan for the same skill: a new version with other content. */
function nextVersion(plan: SkillPlan, version: string, body: string, n: number): SkillPlan {
  const skillMd = plan.version.skillMd.replace(/\n---\n[\s\S]*$/, `\n---\n${body}\n`);
  const order = { sortKey: versionSortKey(version), release: isRelease(version) };
  return {
    ...plan,
    kind: 'version',
    version: {
      ...plan.version,
      version,
      ...order,
      skillMd,
      body,
      digest: `sha256:${n.toString(16).padStart(64, '0')}`,
      publishedAt: at(n),
    },
  };
}

const collect = async <T>(items: AsyncIterable<T>) => {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
};

export function storeContract(backend: Backend): void {
  describe(`store contract [${backend.name}]`, () => {
    let store: Store;
    before(async () => {
      store = await backend.open();
    });
    after(async () => store.close());

    it('claims an agent id once and finds keys by hash and active prefix', async () => {
      const key = newKey('claimer');
      await store.createAgentWithKey(key);
      await assert.rejects(store.createAgentWithKey(newKey('claimer')), AgentExistsError);
      assert.equal(await store.agentExists('claimer'), true);
      assert.equal(await store.agentExists('nobody'), false);
      const found = await store.findKeyByHash(key.keyHash);
      assert.deepEqual(found && { ...found, id: 0 }, {
        id: 0,
        agentId: 'claimer',
        keyHash: key.keyHash,
        keyPrefix: key.keyPrefix,
        scopes: ['read', 'write'],
        tier: 'free',
        createdAt: key.createdAt,
        revokedAt: null,
      });
      assert.equal((await store.findActiveKeyByPrefix(key.keyPrefix))?.keyHash, key.keyHash);
      assert.equal(await store.findKeyByHash('f'.repeat(64)), null);
    });

    it('records which credential kind claimed an agent id first', async () => {
      await store.createAgentWithKey(newKey('key-first'));
      assert.equal(await store.agentOrigin('key-first'), 'api_key');
      assert.equal(await store.claimOidcAgent('key-first', at(5)), 'api_key', 'keys claimed it: the IdP cannot');
      assert.equal(await store.agentOrigin('never-seen'), null);
      assert.equal(await store.claimOidcAgent('idp-first', at(6)), 'oidc');
      assert.equal(await store.claimOidcAgent('idp-first', at(7)), 'oidc', 'claiming again is harmless');
      await assert.rejects(store.createAgentWithKey(newKey('idp-first')), AgentExistsError);
      const profile = await store.reputation('idp-first', 10);
      assert.deepEqual(profile, {
        agent_id: 'idp-first',
        score: 0,
        contributions: 0,
        validations: 0,
        history: [],
        updated_at: at(6),
      });
    });

    it('keeps prefixes unique among unrevoked keys only', async () => {
      const first = newKey('prefixer', { keyPrefix: 'reg_same' });
      await store.createAgentWithKey(first);
      await assert.rejects(store.addKey(newKey('prefixer', { keyPrefix: 'reg_same' })), PrefixTakenError);
      const stored = await store.findActiveKeyByPrefix('reg_same');
      assert.equal(await store.revokeKey(stored!.id, at(1)), true);
      assert.equal(await store.revokeKey(stored!.id, at(2)), false, 'a second revocation changes nothing');
      assert.equal((await store.findKeyByHash(first.keyHash))?.revokedAt, at(1));
      assert.equal(await store.findActiveKeyByPrefix('reg_same'), null);
      await store.addKey(newKey('prefixer', { keyPrefix: 'reg_same' }));
    });

    it('stores a unit, rewards its contributor, and deletes it with its verdicts', async () => {
      await store.createAgentWithKey(newKey('author'));
      await store.createAgentWithKey(newKey('critic'));
      const u = unit('author');
      await store.contributeUnit(u, 0.5, 200);
      assert.deepEqual(await store.getUnit(u.id), u);
      const verdict = await store.recordVerdict({
        unitId: u.id,
        agentId: 'critic',
        valid: true,
        feedback: 'good',
        at: at(900),
        weight: 1,
        decide: decideVerdict,
      });
      assert.deepEqual(verdict, { recorded: true, first: true });
      const again = await store.recordVerdict({
        unitId: u.id,
        agentId: 'critic',
        valid: false,
        feedback: 'changed my mind',
        at: at(901),
        weight: 1,
        decide: decideVerdict,
      });
      assert.deepEqual(again, { recorded: true, first: false });
      const scored = await store.getUnit(u.id);
      assert.deepEqual(scored?.validations, { valid: 0, invalid: 1 });
      assert.equal(scored?.quality_score, unitQuality(0.5, 0, 1));
      assert.equal(scored?.updated_at, at(901));
      const critic = await store.reputation('critic', 10);
      assert.equal(critic?.score, 0.05);
      assert.equal(critic?.validations, 1);
      assert.deepEqual(
        (await collect(store.exportVerdicts('critic'))).map((v) => [v.unit_id, v.valid, v.feedback]),
        [[u.id, false, 'changed my mind']],
      );
      assert.equal(await store.deleteUnit(u.id, at(999)), true);
      assert.equal(await store.deleteUnit(u.id, at(999)), false);
      assert.equal(await store.getUnit(u.id), null);
      assert.deepEqual(await collect(store.exportVerdicts('critic')), []);
      const missing = await store.recordVerdict({
        unitId: u.id,
        agentId: 'critic',
        valid: true,
        feedback: '',
        at: at(902),
        weight: 1,
        decide: decideVerdict,
      });
      assert.deepEqual(missing, { recorded: false, reason: 'not_found' });
      // Issue 13: deleting takes the contribution reward back (history keeps both); the validator keeps its own.
      const author = await store.reputation('author', 10);
      assert.equal(author?.score, 0, 'contribute-and-delete earns nothing');
      assert.equal(author?.contributions, 0);
      assert.deepEqual(
        author?.history.map((h) => [h.action, h.delta, h.target_id]),
        [
          ['contribute_knowledge', -0.2, u.id],
          ['contribute_knowledge', 0.2, u.id],
        ],
      );
      assert.equal((await store.reputation('critic', 10))?.score, 0.05, 'the validator keeps its reward');
    });

    it('lists units with filters, exact totals and the contract order', async () => {
      await store.createAgentWithKey(newKey('lister'));
      const made = [
        unit('lister', { quality_score: 0.3, domain: 'd1', type: 'fact', title: 'Gamma ray' }),
        unit('lister', { quality_score: 0.9, domain: 'd1', type: 'pattern', title: 'Gamma burst detection' }),
        unit('lister', { quality_score: 0.9, domain: 'd2', type: 'pattern', title: 'Delta wave' }),
        unit('lister', { quality_score: 0.6, domain: 'd2', type: 'pitfall', title: 'Epsilon gamma' }),
      ];
      for (const u of made) await store.contributeUnit(u, u.quality_score, 200);
      const page = await store.listUnits(unitQuery({ types: [], limit: 100, offset: 0, domain: undefined }));
      const mine = page.items.filter((u) => u.agent_id === 'lister').map((u) => u.title);
      assert.deepEqual(mine, ['Delta wave', 'Gamma burst detection', 'Epsilon gamma', 'Gamma ray']);
      const d1 = await store.listUnits(unitQuery({ types: [], domain: 'd1', limit: 1, offset: 1 }));
      assert.equal(d1.total, 2);
      assert.deepEqual(
        d1.items.map((u) => u.title),
        ['Gamma ray'],
      );
      const typed = await store.listUnits(
        unitQuery({ types: ['pattern', 'pitfall'], domain: 'd2', limit: 10, offset: 0 }),
      );
      assert.equal(typed.total, 2);
      const good = await store.listUnits(unitQuery({ types: [], domain: 'd2', minQuality: 0.7, limit: 10, offset: 0 }));
      assert.deepEqual(
        good.items.map((u) => u.title),
        ['Delta wave'],
      );
      const fact = await store.listUnits(unitQuery({ types: ['fact'], domain: 'd1', limit: 10, offset: 0 }));
      assert.deepEqual(
        fact.items.map((u) => u.title),
        ['Gamma ray'],
      );
      const past = await store.listUnits(unitQuery({ types: [], domain: 'd1', limit: 10, offset: 2 }));
      assert.deepEqual([past.total, past.items], [2, []], 'a page past the end is empty, with the exact total');
    });

    it('lists skills by visibility, tags (all, any case) and domain', async () => {
      await store.createAgentWithKey(newKey('skiller'));
      await store.createAgentWithKey(newKey('watcher'));
      const pub = skill('skiller', { tags: ['Cli', 'git'], name: 'git-tool', body: 'use git from the command line' });
      const priv = skill('skiller', { visibility: 'private', tags: ['cli'], name: 'secret-tool', body: 'hidden body' });
      await store.publishSkill(pub);
      await store.publishSkill(priv);
      const view = (agentId: string | null, everything = false) => ({ agentId, everything });
      const anon = await store.listSkills(
        skillQuery({ agentId: 'skiller', tags: [], limit: 10, offset: 0, viewer: view(null) }),
      );
      assert.deepEqual(
        anon.items.map((s) => s.name),
        ['git-tool'],
      );
      assert.equal(anon.total, 1);
      const ownerView = await store.listSkills(
        skillQuery({
          agentId: 'skiller',
          tags: [],
          limit: 10,
          offset: 0,
          viewer: view('skiller'),
        }),
      );
      assert.equal(ownerView.total, 2);
      const adminView = await store.listSkills(
        skillQuery({
          agentId: 'skiller',
          tags: [],
          limit: 10,
          offset: 0,
          viewer: view('watcher', true),
        }),
      );
      assert.equal(adminView.total, 2);
      const tagged = await store.listSkills(
        skillQuery({ tags: ['CLI', 'Git'], limit: 10, offset: 0, viewer: view('skiller') }),
      );
      assert.deepEqual(
        tagged.items.map((s) => s.name),
        ['git-tool'],
      );
      const named = await store.listSkills(
        skillQuery({
          name: 'secret-tool',
          tags: [],
          limit: 10,
          offset: 0,
          viewer: view('skiller'),
        }),
      );
      assert.deepEqual(
        named.items.map((s) => s.name),
        ['secret-tool'],
      );
      assert.deepEqual(
        (
          await store.listSkills(
            skillQuery({ name: 'secret-tool', tags: [], limit: 10, offset: 0, viewer: view(null) }),
          )
        ).total,
        0,
      );
      const published = priv.version.publishedAt;
      assert.deepEqual(
        await store.getSkill(priv.skillId),
        plannedSkill(priv, { createdAt: published, updatedAt: published, latestVersion: '1.0.0' }),
      );
      const exported = await collect(store.exportSkills('skiller'));
      assert.deepEqual(
        exported.map((s) => s.name),
        ['git-tool', 'secret-tool'],
      );
    });

    it('lists exactly the skills the visibility rule lets each viewer see', async () => {
      for (const agent of ['vis-a', 'vis-b']) await store.createAgentWithKey(newKey(agent));
      const made = [
        skill('vis-a', { name: 'vis-a-public' }),
        skill('vis-a', { name: 'vis-a-private', visibility: 'private' }),
        skill('vis-b', { name: 'vis-b-public' }),
        skill('vis-b', { name: 'vis-b-private', visibility: 'private' }),
      ];
      for (const plan of made) await store.publishSkill(plan);
      const viewers = [
        { agentId: null, everything: false },
        { agentId: 'vis-a', everything: false },
        { agentId: 'vis-b', everything: false },
        { agentId: 'someone', everything: false },
        { agentId: 'admin', everything: true },
      ];
      for (const viewer of viewers) {
        const expected = made
          .filter((p) => visibleTo(viewer, { visibility: p.visibility, agent_id: p.agentId }))
          .map((p) => p.name)
          .sort();
        const listed = [];
        for (const agentId of ['vis-a', 'vis-b']) {
          const page = await store.listSkills(skillQuery({ agentId, tags: [], limit: 10, offset: 0, viewer }));
          assert.equal(page.total, page.items.length);
          listed.push(...page.items.map((s) => s.name));
        }
        assert.deepEqual(listed.sort(), expected, JSON.stringify(viewer));
        const recent = (await store.recentSkills({ viewer, limit: 100 }))
          .filter((s) => s.name.startsWith('vis-'))
          .map((s) => s.name);
        assert.deepEqual(recent.sort(), expected, `newest, ${JSON.stringify(viewer)}`);
      }
    });

    it('keeps versions of one skill immutable, and moves the default version on yank', async () => {
      await store.createAgentWithKey(newKey('versioner'));
      const first = skill('versioner', { name: 'packaged', body: 'first body' });
      await store.publishSkill(first);
      const id = first.skillId;
      assert.deepEqual(
        [(await store.getSkill(id))?.version, (await store.getSkill(id))?.latest_version],
        ['1.0.0', '1.0.0'],
      );
      const second = nextVersion(first, '1.1.0', 'second body', 9_001);
      await store.publishSkill(second);
      assert.equal((await store.getSkill(id))?.version, '1.1.0');
      assert.equal((await store.getSkill(id))?.skill_md_content, second.version.skillMd);
      assert.equal(
        (await store.getSkill(id, '1.0.0'))?.skill_md_content,
        first.version.skillMd,
        'an old version is kept as it was',
      );
      assert.deepEqual(await store.findSkillByName('versioner', 'packaged'), { skillId: id, visibility: 'public' });
      assert.deepEqual(await store.skillVersionFacts(id, first.version.digest, '1.1.0'), {
        same: '1.0.0',
        taken: true,
        highest: '1.1.0',
      });
      assert.deepEqual(await store.skillVersionFacts(id, 'sha256:none', '2.0.0'), {
        same: null,
        taken: false,
        highest: '1.1.0',
      });
      await assert.rejects(
        store.publishSkill(nextVersion(first, '1.1.0', 'other content', 9_002)),
        PublishRaceError,
        'a version number is never reused',
      );
      await store.publishSkill({ ...second, kind: 'same' });
      const versions = await store.listSkillVersions(id, { limit: 10, offset: 0 });
      assert.deepEqual(
        [versions?.total, versions?.items.map((v) => v.version)],
        [2, ['1.1.0', '1.0.0']],
        'the same content adds nothing',
      );
      assert.deepEqual(
        (await store.listSkillVersions(id, { limit: 1, offset: 1 }))?.items.map((v) => v.version),
        ['1.0.0'],
      );
      const view = { agentId: null, everything: false };
      const listed = async () =>
        (await store.listSkills(skillQuery({ tags: [], limit: 10, offset: 0, viewer: view }))).items.filter(
          (s) => s.id === id,
        );
      assert.deepEqual(
        (await listed()).map((s) => s.version),
        ['1.1.0'],
        'one entry per skill: its latest version',
      );

      assert.equal(await store.setSkillYanked(id, '1.1.0', true, at(9_003)), 'changed');
      assert.equal(await store.setSkillYanked(id, '1.1.0', true, at(9_004)), 'unchanged');
      assert.equal((await store.getSkill(id))?.version, '1.0.0', 'a yanked version is never the default');
      assert.equal((await store.getSkill(id, '1.1.0'))?.yanked, true, 'but stays readable by its number');
      assert.deepEqual(
        (await listed()).map((s) => s.version),
        ['1.0.0'],
      );
      assert.equal(await store.setSkillYanked(id, '1.0.0', true, at(9_005)), 'changed');
      assert.deepEqual(await listed(), [], 'every version yanked: out of lists');
      assert.deepEqual(
        (await store.hostSkills([id])).map((s) => [s.version, s.listed]),
        [['1.1.0', false]],
        'and not served to hosts',
      );
      assert.deepEqual(
        [(await store.getSkill(id))?.version, (await store.getSkill(id))?.latest_version],
        ['1.1.0', null],
      );
      assert.equal(await store.setSkillYanked(id, '9.9.9', true, at(9_006)), 'not_found');
      await store.setSkillYanked(id, '1.0.0', false, at(9_007));
      assert.equal((await store.getSkill(id))?.version, '1.0.0');

      assert.equal((await store.reputation('versioner', 10))?.score, 0.1, 'only a new skill earns the reward');
      assert.equal(await store.deleteSkill(id, at(9_008)), true);
      assert.equal(await store.deleteSkill(id, at(9_009)), false);
      assert.equal(await store.getSkill(id), null);
      assert.equal(await store.getSkill(id, '1.0.0'), null, 'every version is gone');
      assert.equal(await store.listSkillVersions(id, { limit: 10, offset: 0 }), null);
      const profile = await store.reputation('versioner', 10);
      assert.deepEqual([profile?.score, profile?.contributions], [0, 0], 'deleting takes the reward back');
    });

    it('orders versions and picks the default one exactly as the domain rule does, whatever their order of publication', async () => {
      await store.createAgentWithKey(newKey('orderer'));
      const published = [
        '1.0.0',
        '0.9.0',
        '2.0.0-beta.2',
        '1.10.0',
        '2.0.0-beta.10',
        '1.2.0',
        '2.0.0-alpha',
        '1.10.0-rc.1',
      ];
      const first = skill('orderer', { name: 'ordered', version: published[0] });
      await store.publishSkill(first);
      for (const [i, version] of published.slice(1).entries())
        await store.publishSkill(nextVersion(first, version, `body ${i}`, 9_050 + i));
      const id = first.skillId;
      const page = await store.listSkillVersions(id, { limit: 100, offset: 0 });
      assert.deepEqual(
        page?.items.map((v) => v.version),
        [...published].sort(semver.rcompare),
      );
      const yanked = new Set<string>();
      for (const version of [
        '1.10.0',
        '1.2.0',
        '1.0.0',
        '0.9.0',
        '2.0.0-beta.10',
        '2.0.0-beta.2',
        '2.0.0-alpha',
        '1.10.0-rc.1',
      ]) {
        await store.setSkillYanked(id, version, true, at(9_070));
        yanked.add(version);
        const expected = latestVersion(published.map((v) => ({ version: v, yanked: yanked.has(v) })));
        const got = await store.getSkill(id);
        assert.equal(got?.latest_version, expected, `after yanking ${[...yanked].join(', ')}`);
        if (expected !== null) assert.equal(got?.version, expected);
      }
      assert.equal(
        (await store.getSkill(id))?.version,
        '1.10.0',
        'every version yanked: the one the rule picks without yanks is shown, never as latest',
      );
      const capped = { ...nextVersion(first, '3.0.0', 'one too many', 9_080), maxVersions: published.length };
      await assert.rejects(
        store.publishSkill(capped),
        (e: unknown) => e instanceof VersionLimitError && e.limit === published.length,
      );
      assert.equal(
        (await store.listSkillVersions(id, { limit: 1, offset: 0 }))?.total,
        published.length,
        'nothing of it was written',
      );
    });

    it('keeps a bundle of files with their digests, and one skill per name under concurrent creation', async () => {
      await store.createAgentWithKey(newKey('bundler'));
      const files = [{ path: 'scripts/run.py', content_base64: Buffer.from('print("hi")\n').toString('base64') }];
      const skillMd = '---\nname: bundled\ndescription: Has files.\n---\nRun scripts/run.py.\n';
      const plan = newSkillPlan({
        skill_md_content: skillMd,
        visibility: 'public',
        skillId: 'sk_bundled',
        agentId: 'bundler',
        at: at(9_100),
        files,
      });
      await store.publishSkill(plan);
      const got = await store.getSkill('sk_bundled');
      assert.deepEqual(got?.files, [
        {
          path: 'scripts/run.py',
          size: 12,
          digest: plan.version.files[0]!.digest,
          media_type: 'text/plain; charset=utf-8',
        },
      ]);
      assert.equal(got?.file_count, 1);
      const file = await store.getSkillFile('sk_bundled', '1.0.0', 'scripts/run.py');
      assert.equal(Buffer.from(file!.content).toString(), 'print("hi")\n');
      assert.equal((await store.getSkillFile('sk_bundled', null, 'SKILL.md'))?.content.toString(), skillMd);
      assert.equal(await store.getSkillFile('sk_bundled', null, 'nope.txt'), null);
      const bundle = await store.getSkillBundle('sk_bundled', '1.0.0');
      assert.equal(
        versionDigest(bundle!.skillMd, bundle!.files),
        got?.digest,
        'the stored bundle reproduces the version digest',
      );
      const index = await collect(store.discoveryIndex());
      assert.deepEqual(
        index.find((e) => e.id === 'sk_bundled'),
        {
          id: 'sk_bundled',
          name: 'bundled',
          description: 'Has files.',
          version: '1.0.0',
          digest: got!.digest,
          fileCount: 1,
        },
      );
      assert.deepEqual(
        await store.hostSkills(['sk_bundled', 'sk_unknown']),
        [
          {
            id: 'sk_bundled',
            agentId: 'bundler',
            name: 'bundled',
            visibility: 'public',
            version: '1.0.0',
            listed: true,
            held: false,
            description: 'Has files.',
            frontmatter: JSON.stringify({ name: 'bundled', description: 'Has files.' }),
            skillMd: { digest: sha256Digest(skillMd), size: Buffer.byteLength(skillMd) },
            files: got!.files,
          },
        ],
        'what agent hosts are served is kept at publication: frontmatter, SKILL.md digest and size, the file listing',
      );
      assert.deepEqual(await store.hostSkills([]), []);

      const racers = [1, 2, 3].map((n) => ({ ...skill('bundler', { name: 'raced' }), skillId: `sk_raced_${n}` }));
      const outcomes = await Promise.allSettled(racers.map((p) => store.publishSkill(p)));
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 1);
      for (const o of outcomes)
        if (o.status === 'rejected') assert.ok(o.reason instanceof PublishRaceError, String(o.reason));
      assert.equal((await store.reputation('bundler', 10))?.contributions, 2);
    });

    it('feeds the search index: every change logged, items and vectors by sequence, vectors dropped with their item', async () => {
      await store.createAgentWithKey(newKey('indexed'));
      const { last: before } = await store.changeLogState();
      const u = unit('indexed', {
        title: 'Feed me',
        content: { description: 'A fed unit.', examples: ['one', 'two'] },
      });
      await store.contributeUnit(u, 0.5, 200);
      const plan = skill('indexed', { name: 'fed-skill', body: 'the fed body' });
      await store.publishSkill(plan);
      const { changes } = await store.searchChanges(before, 100);
      assert.deepEqual(new Set(changes.map((c) => c.kind)), new Set(['unit', 'skill']));
      const unitSeq = changes.find((c) => c.kind === 'unit')!.itemSeq;
      const skillSeq = changes.find((c) => c.kind === 'skill')!.itemSeq;
      const [unitItem] = await store.searchItemsBySeq('unit', [unitSeq]);
      assert.deepEqual(
        [unitItem?.id, unitItem?.name, unitItem?.body, unitItem?.type],
        [u.id, 'Feed me', 'one\ntwo', 'pattern'],
      );
      const [skillItem] = await store.searchItemsBySeq('skill', [skillSeq]);
      assert.deepEqual(
        [skillItem?.id, skillItem?.name, skillItem?.body, skillItem?.listed, skillItem?.visibility],
        [plan.skillId, 'fed-skill', 'the fed body\n', true, 'public'],
      );
      assert.ok((await store.searchItems('skill', 0, 1_000)).some((i) => i.seq === skillSeq));
      for (const kind of ['skill', 'unit'] as const)
        assert.equal(
          await store.countSearchItems(kind),
          (await store.searchItems(kind, 0, 100_000)).length,
          `${kind}s counted as listed`,
        );

      const model = 'test-model';
      assert.ok((await store.itemsWithoutVectors('unit', model, 10_000)).some((i) => i.seq === unitSeq));
      const pending = await store.countItemsWithoutVectors('unit', model);
      await store.saveVectors('unit', model, [{ seq: unitSeq, vector: new Float32Array([0.5, -1, 2]) }]);
      assert.equal(await store.countItemsWithoutVectors('unit', model), pending - 1);
      assert.deepEqual([...(await store.itemVectors('unit', model, unitSeq - 1, 1))[0]!.vector], [0.5, -1, 2]);
      assert.deepEqual(
        (await store.unitSummariesBySeq([unitSeq])).map((s) => [s.id, s.truncated]),
        [[u.id, false]],
      );
      assert.deepEqual(
        (await store.skillSummariesBySeq([skillSeq, 999_999])).map((s) => s.id),
        [plan.skillId],
      );

      await store.deleteUnit(u.id, at(9_500));
      assert.deepEqual(
        await store.itemVectors('unit', model, unitSeq - 1, 1),
        [],
        'a deleted item takes its vector with it',
      );
      const after = (await store.searchChanges(changes.at(-1)!, 100)).changes;
      assert.deepEqual(
        after.map((c) => [c.kind, c.itemSeq]),
        [['unit', unitSeq]],
      );
      await store.saveVectors('unit', model, [{ seq: unitSeq, vector: new Float32Array([1]) }]);
      assert.deepEqual(
        await store.itemVectors('unit', model, unitSeq - 1, 1),
        [],
        'a vector for a deleted item is not kept',
      );
      const { last } = await store.changeLogState();
      assert.ok(await store.holdsChange(last));
      assert.ok((await store.purgeSearchChanges(1)) > 0, 'all but the newest change purged');
      const purged = await store.changeLogState();
      assert.deepEqual(purged.last, last, 'the newest change is kept');
      const read = await store.searchChanges(before, 100);
      assert.deepEqual(
        read.changes.map((c) => ({ tx: c.tx, seq: c.seq })),
        [last],
      );
      assert.ok(
        purged.purged.tx < last.tx || (purged.purged.tx === last.tx && purged.purged.seq < last.seq),
        'the purge mark is behind the newest change',
      );
      assert.ok(
        before.tx < purged.purged.tx || (before.tx === purged.purged.tx && before.seq < purged.purged.seq),
        'a reader from before the purge is behind the mark',
      );
    });

    it('keeps reputation exact and the history complete, in batches', async () => {
      await store.createAgentWithKey(newKey('saver'));
      for (let i = 0; i < 1_203; i++) await store.contributeUnit(unit('saver'), 0.5, 200);
      await store.publishSkill(skill('saver'));
      const profile = await store.reputation('saver', 5);
      assert.equal(profile?.score, 240.7);
      assert.equal(profile?.contributions, 1_204);
      assert.equal(profile?.history.length, 5);
      assert.equal(profile?.history[0]?.action, 'contribute_skill');
      const history = await collect(store.exportHistory('saver'));
      assert.equal(history.length, 1_204);
      assert.equal(history[0]?.action, 'contribute_knowledge');
      assert.equal((await collect(store.exportUnits('saver'))).length, 1_203);
      assert.equal((await collect(store.exportKeys('saver'))).length, 1);
      assert.equal(await store.reputation('unknown-agent', 5), null);
    });

    it('counts every verdict when 20 agents validate one unit at the same moment', async () => {
      await store.createAgentWithKey(newKey('crowd-author'));
      const u = unit('crowd-author');
      await store.contributeUnit(u, 0.5, 200);
      const crowd = Array.from({ length: 20 }, (_, i) => `crowd-${i}`);
      for (const agentId of crowd) await store.createAgentWithKey(newKey(agentId));
      const outcomes = await Promise.all(
        crowd.map((agentId, i) =>
          store.recordVerdict({
            unitId: u.id,
            agentId,
            valid: i % 4 !== 0,
            feedback: `verdict ${i}`,
            at: at(1_000 + i),
            weight: 1,
            decide: decideVerdict,
          }),
        ),
      );
      assert.deepEqual(
        outcomes,
        crowd.map(() => ({ recorded: true, first: true })),
      );
      const judged = await store.getUnit(u.id);
      assert.deepEqual(judged?.validations, { valid: 15, invalid: 5 });
      assert.equal(judged?.quality_score, unitQuality(0.5, 15, 5));
      for (const agentId of crowd) {
        const profile = await store.reputation(agentId, 5);
        assert.deepEqual([profile?.score, profile?.validations, profile?.history.length], [0.05, 1, 1], agentId);
      }
    });

    it('lets exactly one of 10 simultaneous registrations of one agent id claim it', async () => {
      const keys = Array.from({ length: 10 }, () => newKey('contested'));
      const outcomes = await Promise.allSettled(keys.map((key) => store.createAgentWithKey(key)));
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [keys[i]!] : []));
      assert.equal(won.length, 1);
      for (const o of outcomes)
        if (o.status === 'rejected') assert.ok(o.reason instanceof AgentExistsError, String(o.reason));
      const exported = await collect(store.exportKeys('contested'));
      assert.deepEqual(
        exported.map((k) => k.key_prefix),
        [won[0]!.keyPrefix],
        'only the winner has a key',
      );
      for (const key of keys) assert.equal((await store.findKeyByHash(key.keyHash)) !== null, key === won[0]);
    });

    it('counts and rewards once when one agent sends 10 verdicts on one unit at the same moment', async () => {
      await store.createAgentWithKey(newKey('eager-author'));
      await store.createAgentWithKey(newKey('eager-critic'));
      const u = unit('eager-author');
      await store.contributeUnit(u, 0.5, 200);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          store.recordVerdict({
            unitId: u.id,
            agentId: 'eager-critic',
            valid: true,
            feedback: `try ${i}`,
            at: at(2_000 + i),
            weight: 1,
            decide: decideVerdict,
          }),
        ),
      );
      assert.equal(outcomes.filter((o) => o.recorded && o.first).length, 1, 'exactly one is the first verdict');
      assert.equal(outcomes.filter((o) => o.recorded && !o.first).length, 9, 'the others replace it');
      const judged = await store.getUnit(u.id);
      assert.deepEqual(judged?.validations, { valid: 1, invalid: 0 });
      assert.equal(judged?.quality_score, unitQuality(0.5, 1, 0));
      const critic = await store.reputation('eager-critic', 20);
      assert.deepEqual([critic?.score, critic?.validations, critic?.history.length], [0.05, 1, 1]);
      assert.equal((await collect(store.exportVerdicts('eager-critic'))).length, 1);
    });

    it('writes once when 5 requests with one idempotency key arrive at the same moment', async () => {
      await store.createAgentWithKey(newKey('retrier'));
      const response = (n: number): IdempotentResponse => ({
        scope: 'retrier',
        keyHash: 'k'.repeat(64),
        requestHash: 'r'.repeat(64),
        status: 201,
        body: `sealed ${n}`,
        createdAt: at(3_000),
        expiredBefore: at(0),
      });
      const units = Array.from({ length: 5 }, () => unit('retrier'));
      const outcomes = await Promise.allSettled(units.map((u, i) => store.contributeUnit(u, 0.5, 200, response(i))));
      const won = outcomes.flatMap((o, i) => (o.status === 'fulfilled' ? [i] : []));
      assert.equal(won.length, 1);
      for (const o of outcomes)
        if (o.status === 'rejected') assert.ok(o.reason instanceof IdempotencyKeyTakenError, String(o.reason));
      assert.deepEqual(
        (await collect(store.exportUnits('retrier'))).map((u) => u.id),
        [units[won[0]!]!.id],
      );
      assert.equal((await store.reputation('retrier', 10))?.score, 0.2, 'rewarded once');
      assert.equal((await store.findIdempotentResponse('retrier', 'k'.repeat(64), at(0)))?.body, `sealed ${won[0]}`);
    });

    it(
      'refuses text it cannot store, and stores nothing of it',
      {
        skip:
          backend.name === 'sqlite' ? 'SQLite stores NUL characters unchanged; only PostgreSQL refuses them' : false,
      },
      async () => {
        await store.createAgentWithKey(newKey('nul-writer'));
        await assert.rejects(
          store.contributeUnit(unit('nul-writer', { title: 'nul\u0000title' }), 0.5, 200),
          UnstorableTextError,
        );
        await assert.rejects(
          store.contributeUnit(unit('nul-writer', { tags: ['lone \ud800'] }), 0.5, 200),
          UnstorableTextError,
        );
        const withNul = skill('nul-writer');
        await assert.rejects(
          store.publishSkill({ ...withNul, version: { ...withNul.version, body: 'body\u0000' } }),
          UnstorableTextError,
        );
        await assert.rejects(store.createAgentWithKey(newKey('nul\u0000agent')), UnstorableTextError);
        // Reads pass the text to the database, which refuses it; the store answers with the same error.
        await assert.rejects(store.findKeyByHash('\u0000'), UnstorableTextError);
        await assert.rejects(
          store.listUnits(unitQuery({ types: [], domain: 'a\u0000b', limit: 10, offset: 0 })),
          UnstorableTextError,
        );
        const profile = await store.reputation('nul-writer', 10);
        assert.deepEqual([profile?.score, profile?.contributions, profile?.history], [0, 0, []]);
      },
    );
  });

  describe(`store migrations [${backend.name}]`, () => {
    const shipped = (backend.name === 'postgres' ? postgresMigrations : sqliteMigrations).map((m) => m.version);

    it('migrates once when several instances start on one database at the same moment, and again never', async () => {
      const db = await backend.shared();
      const open: Store[] = [];
      try {
        const started = await Promise.allSettled([db.start(), db.start(), db.start()]);
        for (const result of started) if (result.status === 'fulfilled') open.push(result.value);
        const failures = started.flatMap((r) => (r.status === 'rejected' ? [String(r.reason)] : []));
        assert.deepEqual(failures, [], 'every instance starts');
        assert.deepEqual(await db.appliedMigrations(), shipped);
        const [first, second] = open as [Store, Store];
        await first.createAgentWithKey(newKey('shared-agent'));
        assert.equal(await second.agentExists('shared-agent'), true, 'the instances share one database');
        for (const store of open.splice(0)) await store.close();

        const restarted = await db.start();
        open.push(restarted);
        assert.deepEqual(await db.appliedMigrations(), shipped, 'a restart applies nothing twice');
        assert.equal(await restarted.agentExists('shared-agent'), true, 'a restart keeps the data');
      } finally {
        for (const store of open) await store.close();
        await db.drop();
      }
    });

    it('keeps what agent hosts are served for the versions published before it was kept (the backfill)', async () => {
      const db = await backend.shared();
      const hostMigration = backend.name === 'postgres' ? 7 : 8;
      let store = await db.start();
      try {
        await store.createAgentWithKey(newKey('early'));
        const early = skill('early', { name: 'early-bird' });
        await store.publishSkill(early);
        const odd = newSkillPlan({
          skill_md_content: '---\nname: Odd Name\ndescription: Not a slug.\n---\nBody.\n',
          visibility: 'public',
          skillId: 'sk_odd',
          agentId: 'early',
          at: at(9_200),
        });
        await store.publishSkill(odd);
        const before = await store.hostSkills(['sk_odd', early.skillId]);
        await store.close();
        await db.exec(
          `ALTER TABLE skill_versions DROP COLUMN frontmatter; ALTER TABLE skill_versions DROP COLUMN skill_md_digest;
           ALTER TABLE skill_versions DROP COLUMN skill_md_bytes; DELETE FROM schema_migrations WHERE version = ${hostMigration};`,
        );
        store = await db.start();
        const after = await store.hostSkills(['sk_odd', early.skillId]);
        const byId = (list: typeof before) => [...list].sort((a, b) => (a.id < b.id ? -1 : 1));
        assert.deepEqual(byId(after), byId(before));
        assert.equal(
          after.find((s) => s.id === 'sk_odd')?.frontmatter,
          null,
          'a skill that does not conform is not served to hosts',
        );
        assert.ok(after.find((s) => s.id !== 'sk_odd')?.frontmatter);
      } finally {
        await store.close();
        await db.drop();
      }
    });
  });
}
