// Configuration: every REG_* variable is read once, with its documented default, and a bad value stops
// the start with a message naming the variable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config/index.js';
import { KEY_TIERS } from '../../src/domain/model.js';

describe('configuration', () => {
  it('has the documented defaults with nothing set', () => {
    const config = loadConfig({});
    assert.equal(config.port, 3000);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.databaseUrl, 'sqlite:./data/registry.db');
    assert.equal(config.databasePoolMax, 10);
    assert.equal(config.sqliteReadWorkers, 2);
    assert.equal(config.redisUrl, null);
    assert.equal(config.redisKeyPrefix, 'registry:');
    assert.equal(config.trustProxy, false);
    assert.deepEqual(config.rateLimits, { anonymous: 60, free: 600, pro: 3000, enterprise: 15000 });
    assert.equal(config.openAdminRegistration, false);
    assert.equal(config.registerLimitPerHour, null);
    assert.equal(config.oidc, null);
    assert.equal(config.logLevel, 'info');
  });

  it('reads every variable it documents', () => {
    const config = loadConfig({
      REG_PORT: '8080',
      REG_HOST: '0.0.0.0',
      REG_DATABASE_URL: 'postgres://db/registry',
      REG_DATABASE_POOL_MAX: '25',
      REG_SQLITE_READ_WORKERS: '0',
      REG_REDIS_URL: 'redis://cache:6379',
      REG_REDIS_KEY_PREFIX: 'reg-a:',
      REG_RATE_LIMIT_ANONYMOUS: '1',
      REG_RATE_LIMIT_FREE: '2',
      REG_RATE_LIMIT_PRO: '3',
      REG_RATE_LIMIT_ENTERPRISE: '4',
      REG_OPEN_ADMIN_REGISTRATION: 'true',
      REG_REGISTER_LIMIT: '10',
      REG_LOG_LEVEL: 'warn',
    });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '0.0.0.0');
    assert.equal(config.databaseUrl, 'postgres://db/registry');
    assert.equal(config.databasePoolMax, 25);
    assert.equal(config.sqliteReadWorkers, 0);
    assert.equal(config.redisUrl, 'redis://cache:6379');
    assert.equal(config.redisKeyPrefix, 'reg-a:');
    assert.deepEqual(config.rateLimits, { anonymous: 1, free: 2, pro: 3, enterprise: 4 });
    assert.equal(config.openAdminRegistration, true);
    assert.equal(config.registerLimitPerHour, 10);
    assert.equal(config.logLevel, 'warn');
  });

  it('refuses a bad value, naming the variable', () => {
    const bad: Record<string, string> = {
      REG_PORT: '70000',
      REG_DATABASE_URL: 'mysql://db',
      REG_DATABASE_POOL_MAX: '0',
      REG_SQLITE_READ_WORKERS: '-1',
      REG_RATE_LIMIT_FREE: 'many',
      REG_REGISTER_LIMIT: '1.5',
      REG_LOG_LEVEL: 'loud',
    };
    for (const [name, value] of Object.entries(bad)) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(name),
        name,
      );
    }
  });

  it('reads a flag as off only for the usual words for no', () => {
    for (const off of ['', '0', 'false', 'no', 'off', ' OFF '])
      assert.equal(loadConfig({ REG_OPEN_ADMIN_REGISTRATION: off }).openAdminRegistration, false, off);
    for (const on of ['1', 'true', 'yes', 'on'])
      assert.equal(loadConfig({ REG_OPEN_ADMIN_REGISTRATION: on }).openAdminRegistration, true, on);
  });

  it('refuses every malformed value with one line naming the variable and what it accepts', () => {
    const bad: Record<string, [string, RegExp]> = {
      REG_EMBEDDINGS_DIMENSIONS: ['abc', /an integer from 1 to 8192/],
      REG_OPEN_ADMIN_REGISTRATION: ['maybe', /a flag/],
      REG_EMBEDDINGS: ['bogus', /one of builtin, none/],
      REG_QUOTA_PRO: ['units=lots', /units=10000/],
      REG_SELF_SERVICE_TIERS: ['free,gold', /tiers from free, pro, enterprise/],
      REG_SECRET: ['short', /at least 32 characters/],
      REG_REDIS_URL: ['cache:6379', /redis:\/\//],
    };
    for (const [name, [value, accepts]] of Object.entries(bad)) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.startsWith(`${name} must be`) &&
          accepts.test(error.message) &&
          !error.message.includes('\n'),
        name,
      );
    }
  });

  it('never repeats a secret in its refusal', () => {
    assert.throws(
      () => loadConfig({ REG_SECRET: 'tooshort-secret' }),
      (error: unknown) => error instanceof ConfigError && !error.message.includes('tooshort'),
    );
    assert.throws(
      () => loadConfig({ REG_DATABASE_URL: 'mysql://registry:hunter2@db/registry' }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message.includes('mysql://registry:***@db/registry') &&
        !error.message.includes('hunter2'),
    );
    assert.throws(
      () => loadConfig({ REG_REDIS_URL: 'http://:hunter2@cache:6379' }),
      (error: unknown) => error instanceof ConfigError && !error.message.includes('hunter2'),
    );
  });

  it('takes its tiers from the domain: a rate limit and a quota for each', () => {
    const config = loadConfig({});
    assert.deepEqual(Object.keys(config.quotas), [...KEY_TIERS]);
    assert.deepEqual(Object.keys(config.rateLimits), ['anonymous', ...KEY_TIERS]);
    assert.deepEqual(config.selfServiceTiers, [...KEY_TIERS]);
    assert.deepEqual(config.quotas.free, { units: 10_000, skills: 1_000, bytes: 100 * 1024 ** 2 });
    assert.deepEqual(loadConfig({ REG_QUOTA_PRO: 'bytes=2GB, units=unlimited' }).quotas.pro, {
      units: null,
      skills: 10_000,
      bytes: 2 * 1024 ** 3,
    });
  });

  it('reads the embedding model and its options', () => {
    assert.deepEqual(loadConfig({}).embeddings, { kind: 'none' });
    assert.deepEqual(loadConfig({ REG_EMBEDDINGS: 'off' }).embeddings, { kind: 'none' });
    const openai = {
      REG_EMBEDDINGS: 'openai',
      REG_EMBEDDINGS_URL: 'http://127.0.0.1:11434/v1',
      REG_EMBEDDINGS_MODEL: 'm',
      REG_EMBEDDINGS_DIMENSIONS: '384',
    };
    assert.deepEqual(loadConfig(openai).embeddings, {
      kind: 'openai',
      url: 'http://127.0.0.1:11434/v1',
      model: 'm',
      dimensions: 384,
    });
    assert.throws(() => loadConfig({ REG_EMBEDDINGS: 'openai' }), /REG_EMBEDDINGS_URL and REG_EMBEDDINGS_MODEL/);
  });
});
