// The container files, checked without Docker (no image can be pulled here): the Dockerfile follows the
// production path as a non-root user with a health check and a data volume, and compose.yaml runs two
// instances behind a proxy on one PostgreSQL and one Redis, with variables the registry declares. The
// Dockerfile is also linted by dockerfile-utils (the linter of the Docker language server).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { VARIABLES } from '../../src/config/variables.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');

/** The Dockerfile's instructions, continuation lines joined, comments dropped. */
const instructions = read('Dockerfile')
  .replace(/\\\n\s*/g, ' ')
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));

type Service = {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: unknown;
  ports?: string[];
  volumes?: string[];
};

describe('the container files', () => {
  it('build in stages and run the production path as a non-root user, with a health check on /readyz and a data volume', () => {
    const stages = instructions.filter((line) => line.startsWith('FROM '));
    assert.ok(stages.length >= 2, 'a build stage and a run stage');
    const run = instructions.slice(instructions.lastIndexOf(stages.at(-1)!));
    const text = instructions.join('\n');
    assert.match(text, /RUN npm ci\b/);
    assert.match(text, /RUN npm run build && npm prune --omit=dev/);
    const user = run.find((line) => line.startsWith('USER '));
    assert.ok(user && !/USER (root|0)\b/.test(user), 'the service runs as a non-root user');
    assert.match(
      run.find((line) => line.startsWith('HEALTHCHECK '))!,
      /\/readyz/,
    );
    assert.match(
      run.find((line) => line.startsWith('VOLUME '))!,
      /"\/data"/,
    );
    assert.match(text, /REG_DATABASE_URL=sqlite:\/data\//);
    assert.equal(run.at(-1), 'CMD ["node", "dist/main.js"]');
    for (const [, name] of text.matchAll(/\b(REG_[A-Z_]+)=/g))
      assert.ok(name! in VARIABLES, `${name} is a variable the registry reads`);
  });

  it('pass the Dockerfile linter', () => {
    const problems = validate(read('Dockerfile')).map((d) => `line ${d.range.start.line + 1}: ${d.message}`);
    assert.deepEqual(problems, []);
    assert.notDeepEqual(
      validate('FROM node:22\nMAINTAINER someone\n'),
      [],
      'the linter reports a deprecated instruction',
    );
  });

  it('keep local data, secrets and build output out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['node_modules', 'dist', 'data', '*.secret', '*.db', '.git'])
      assert.ok(ignored.includes(entry), entry);
  });

  it('compose two instances behind a proxy, on one PostgreSQL and one Redis', () => {
    const services = (parse(read('compose.yaml'), { merge: true }) as { services: Record<string, Service> }).services;
    const registries = Object.entries(services).filter(([, service]) => service.build === '.');
    assert.equal(registries.length, 2);
    for (const [name, service] of registries) {
      const env = service.environment!;
      for (const variable of Object.keys(env))
        assert.ok(variable in VARIABLES, `${name}: ${variable} is a variable the registry reads`);
      assert.match(env.REG_DATABASE_URL!, /^postgres:\/\/[^@]+@db:5432\//);
      assert.equal(env.REG_REDIS_URL, 'redis://cache:6379');
      assert.match(env.REG_SECRET!, /^\$\{REG_SECRET:\?/, 'one secret for every instance, required');
      assert.equal(env.REG_HOST, '0.0.0.0');
      assert.equal(env.REG_TRUST_PROXY, '1');
      assert.deepEqual(service.depends_on, {
        db: { condition: 'service_healthy' },
        cache: { condition: 'service_healthy' },
      });
      // Its search snapshot on a volume of its own (snapshots are per instance).
      const snapshots = env.REG_SEARCH_SNAPSHOT_DIR!;
      const volume = service.volumes?.find((v) => snapshots.startsWith(v.split(':')[1]!));
      assert.ok(volume, `${name}: its search snapshot is on a volume`);
    }
    const snapshotVolumes = registries.map(([, service]) => service.volumes!.map((v) => v.split(':')[0]).join());
    assert.equal(new Set(snapshotVolumes).size, registries.length, 'no two instances share a snapshot volume');
    assert.match(services.db!.image!, /^postgres:/);
    assert.match(services.cache!.image!, /^redis:/);
    assert.ok(services.db!.healthcheck && services.cache!.healthcheck);
    const proxy = services.proxy!;
    assert.ok(proxy.ports!.length > 0, 'the proxy is the only published port');
    for (const [name, service] of registries)
      assert.equal(service.ports, undefined, `${name} is reached through the proxy only`);
    const caddyfile = read(
      proxy
        .volumes!.find((v) => v.includes('Caddyfile'))!
        .split(':')[0]!
        .replace(/^\.\//, ''),
    );
    for (const [name] of registries) assert.match(caddyfile, new RegExp(`\\b${name}:3000\\b`));
    assert.match(caddyfile, /health_uri \/readyz/);
  });
});
