// Configuration: every REG_* variable is read once, with its documented default, and a bad value stops
// the start with a message naming the variable.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

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
      assert.throws(() => loadConfig({ [name]: value }), (error: unknown) => error instanceof ConfigError && error.message.includes(name), name);
    }
  });

  it('reads a flag as off only for the usual words for no', () => {
    for (const off of ['', '0', 'false', 'no', 'off', ' OFF ']) assert.equal(loadConfig({ REG_OPEN_ADMIN_REGISTRATION: off }).openAdminRegistration, false, off);
    for (const on of ['1', 'true', 'yes', 'on']) assert.equal(loadConfig({ REG_OPEN_ADMIN_REGISTRATION: on }).openAdminRegistration, true, on);
  });
});
