// Registration refuses an agent id that looks like an existing one, with case set aside in every order:
// after `alice`, also `AIice` (capital i) and `ALlCE` (the capitals of `alice`, `I` as a small `l`).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { backends } from '../helpers/backends.js';
import { call, errorCode, register, testApp, type TestApp } from '../helpers/app.js';

const refusal = (agentId: string) =>
  `agent_id ${agentId} looks like the id of an existing agent (letters that look alike, or differ only in case); choose another`;

for (const backend of backends()) {
  describe(`look-alike agent ids at registration [${backend.name}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await testApp(await backend.open());
    });
    after(async () => t.close());

    const attempt = (agentId: string) =>
      call(t.app, 'POST', '/v1/auth/register', { body: { agent_id: agentId, scopes: ['read'], tier: 'free' } });

    it('refuses every id that looks like an existing one, whatever the order of case and look-alikes (409)', async () => {
      await register(t.app, 'alice');
      for (const lookalike of ['AIice', 'ALlCE', 'a1ice', 'Alice', 'aIice', 'ALICE', 'A1ICE', 'aiice', 'alIce']) {
        const res = await attempt(lookalike);
        assert.equal(res.statusCode, 409, `${lookalike}: ${res.body}`);
        assert.equal(errorCode(res), 'CONFLICT');
        assert.equal(res.json().error.message, refusal(lookalike), 'names the id asked for, not the one it looks like');
        assert.equal((await call(t.app, 'GET', `/v1/reputation/${lookalike}`)).statusCode, 404, 'nothing was created');
      }
    });

    it('takes rn for m and vv for w, in either case, and keeps apart ids that only share letters', async () => {
      await register(t.app, 'rnary');
      await register(t.app, 'Will');
      for (const lookalike of ['Mary', 'mary', 'RNARY', 'vviII', 'VVILL', 'wiii']) {
        assert.equal((await attempt(lookalike)).statusCode, 409, lookalike);
      }
      for (const distinct of ['alice2', 'alicia', 'mar', 'will.bot', 'bill', 'nary']) {
        assert.equal((await attempt(distinct)).statusCode, 201, distinct);
      }
    });
  });
}
