// The access rules, decided once (domain/access.ts) for every door: who sees a private skill, who may
// delete, manage, validate, export and revoke, which scopes and tiers a caller may grant.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  actsForAgent,
  assertMayChooseTier,
  assertMayDeleteUnit,
  assertMayExport,
  assertMayGrantScopes,
  assertMayManageSkill,
  assertMayRevoke,
  assertMayValidate,
  canSeeSkill,
  mayReadPrivateHistory,
  requireAgent,
  requireScope,
  viewerOf,
  visibleTo,
} from '../../src/domain/access.js';
import { ANONYMOUS, type Agent, type Caller } from '../../src/domain/caller.js';
import { ApiError } from '../../src/domain/errors.js';
import type { ApiKeyRecord, Scope } from '../../src/domain/model.js';

const agent = (agentId: string, scopes: Scope[] = ['read', 'write']): Agent => ({
  authenticated: true,
  apiKey: 'h'.repeat(64),
  tier: 'free',
  agentId,
  scopes,
  keyId: 1,
  method: 'api_key',
});
const admin = agent('root', ['read', 'write', 'admin']);
const status = (run: () => unknown) => {
  try {
    run();
    return 200;
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error.statusCode;
  }
};
const key = (agentId: string, scopes: Scope[]): ApiKeyRecord => ({
  id: 7,
  agentId,
  keyHash: 'k'.repeat(64),
  keyPrefix: 'reg_abcd',
  scopes,
  tier: 'free',
  createdAt: '2026-11-22T10:00:00.000Z',
  revokedAt: null,
});

describe('access rules', () => {
  it('admit callers: 401 without credentials, 403 without the scope', () => {
    assert.equal(
      status(() => requireAgent(ANONYMOUS)),
      401,
    );
    assert.equal(
      status(() => requireScope(ANONYMOUS, 'write')),
      401,
    );
    assert.equal(
      status(() => requireScope(agent('a', ['read']), 'write')),
      403,
    );
    assert.equal(requireScope(agent('a'), 'write').agentId, 'a');
  });

  it('show a private skill to its publisher and admins only, in every form of the rule', () => {
    const callers: Caller[] = [ANONYMOUS, agent('alice'), agent('bob'), admin];
    const skills = [
      { visibility: 'public', agent_id: 'alice' },
      { visibility: 'private', agent_id: 'alice' },
    ] as const;
    const seen = callers.map((caller) => skills.map((skill) => canSeeSkill(caller, skill)));
    assert.deepEqual(seen, [
      [true, false],
      [true, true],
      [true, false],
      [true, true],
    ]);
    for (const caller of callers)
      for (const skill of skills) assert.equal(visibleTo(viewerOf(caller), skill), canSeeSkill(caller, skill));
  });

  it('let the contributor with write scope, or an admin, delete a unit', () => {
    const unit = { agent_id: 'alice' };
    assert.equal(
      status(() => assertMayDeleteUnit(agent('alice'), unit)),
      200,
    );
    assert.equal(
      status(() => assertMayDeleteUnit(agent('alice', ['read']), unit)),
      403,
    );
    assert.equal(
      status(() => assertMayDeleteUnit(agent('bob'), unit)),
      403,
    );
    assert.equal(
      status(() => assertMayDeleteUnit(admin, unit)),
      200,
    );
    assert.equal(
      status(() => assertMayManageSkill(agent('bob'), unit)),
      403,
    );
    assert.equal(
      status(() => assertMayManageSkill(admin, unit)),
      200,
    );
  });

  it('refuse validating one’s own unit, and exports of others’ data', () => {
    assert.equal(
      status(() => assertMayValidate(agent('alice'), { agent_id: 'alice' })),
      403,
    );
    assert.equal(
      status(() => assertMayValidate(agent('bob', ['read']), { agent_id: 'alice' })),
      200,
    );
    assert.equal(
      status(() => assertMayExport(agent('bob'), 'alice')),
      403,
    );
    assert.equal(
      status(() => assertMayExport(admin, 'alice')),
      200,
    );
    assert.equal(mayReadPrivateHistory(agent('alice'), 'alice'), true);
    assert.equal(mayReadPrivateHistory(agent('bob'), 'alice'), false);
    assert.equal(mayReadPrivateHistory(ANONYMOUS, 'alice'), false);
    assert.equal(mayReadPrivateHistory(admin, 'alice'), true);
  });

  it('revoke only keys whose scopes the caller holds, reporting every other key as missing', () => {
    assert.equal(
      status(() => assertMayRevoke(agent('alice'), key('alice', ['read']), 'reg_abcd')),
      200,
    );
    assert.equal(
      status(() => assertMayRevoke(agent('alice', ['read']), key('alice', ['read', 'write']), 'reg_abcd')),
      404,
    );
    assert.equal(
      status(() => assertMayRevoke(agent('bob'), key('alice', ['read']), 'reg_abcd')),
      404,
    );
    assert.equal(
      status(() => assertMayRevoke(agent('alice'), null, 'reg_abcd')),
      404,
    );
    assert.equal(
      status(() => assertMayRevoke(admin, key('alice', ['admin']), 'reg_abcd')),
      200,
    );
  });

  it('grant admin only from an admin (or open admin registration), and no scope a key lacks', () => {
    assert.equal(
      status(() => assertMayGrantScopes(ANONYMOUS, 'new', ['admin'], false)),
      403,
    );
    assert.equal(
      status(() => assertMayGrantScopes(ANONYMOUS, 'new', ['admin'], true)),
      200,
    );
    assert.equal(
      status(() => assertMayGrantScopes(admin, 'new', ['admin'], false)),
      200,
    );
    assert.equal(
      status(() => assertMayGrantScopes(agent('alice', ['read']), 'alice', ['write'], false)),
      403,
    );
    assert.equal(
      status(() => assertMayGrantScopes(agent('alice', ['read']), 'other', ['write'], false)),
      200,
    );
    assert.equal(
      status(() => assertMayChooseTier(ANONYMOUS, 'enterprise', ['free'])),
      403,
    );
    assert.equal(
      status(() => assertMayChooseTier(admin, 'enterprise', ['free'])),
      200,
    );
    assert.equal(actsForAgent(agent('alice'), 'alice'), true);
    assert.equal(actsForAgent(agent('bob'), 'alice'), false);
    assert.equal(actsForAgent(admin, 'alice'), true);
    assert.equal(actsForAgent(ANONYMOUS, 'alice'), false);
  });
});
