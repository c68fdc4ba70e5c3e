// Lints the OpenAPI document the app serves with Redocly (redocly.yaml) and Spectral (.spectral.yaml),
// through their Node APIs (no CLI: nothing is downloaded or reported anywhere). `npm run lint:openapi` runs
// it and prints every finding; test/http/openapi-lint.test.ts fails on any error.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { lint, loadConfig } from '@redocly/openapi-core';
import spectralCore from '@stoplight/spectral-core';
import spectralParsers from '@stoplight/spectral-parsers';
import spectralRulesets from '@stoplight/spectral-rulesets';
import { parse } from 'yaml';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, testApp } from './app.js';

export interface LintProblem {
  tool: 'redocly' | 'spectral';
  severity: 'error' | 'warn' | 'info' | 'hint';
  rule: string;
  message: string;
  where: string;
}

const ROOT = new URL('../../', import.meta.url);
const SPECTRAL_SEVERITIES = ['error', 'warn', 'info', 'hint'] as const;

/**
 * The Spectral ruleset of .spectral.yaml: `extends` of spectral:oas (with its rule set name) and `rules`
 * severity overrides, the parts of the ruleset format this project uses, read without a bundler.
 */
function spectralRuleset(): object {
  const file = parse(readFileSync(new URL('.spectral.yaml', ROOT), 'utf8')) as {
    extends?: unknown;
    rules?: Record<string, unknown>;
  };
  const extended = [file.extends ?? []].flat(1) as (string | [string, string])[];
  const unknown = extended.filter((entry) => (Array.isArray(entry) ? entry[0] : entry) !== 'spectral:oas');
  if (unknown.length > 0)
    throw new Error(`.spectral.yaml extends ${JSON.stringify(unknown)}: only spectral:oas is supported here`);
  return {
    extends: extended.map((entry) => [spectralRulesets.oas, Array.isArray(entry) ? entry[1] : 'recommended']),
    ...(file.rules ? { rules: file.rules } : {}),
  };
}

export async function lintOpenApi(document: object): Promise<LintProblem[]> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  const file = join(dir, 'openapi.json');
  try {
    writeFileSync(file, JSON.stringify(document, null, 2));
    const config = await loadConfig({ configPath: new URL('redocly.yaml', ROOT).pathname });
    const redocly = (await lint({ ref: file, config })).map((p): LintProblem => ({
      tool: 'redocly',
      severity: p.severity,
      rule: p.ruleId,
      message: p.message,
      where: p.location[0]?.pointer ?? '',
    }));
    const spectral = new spectralCore.Spectral();
    spectral.setRuleset(spectralRuleset() as never);
    const results = await spectral.run(
      new spectralCore.Document(readFileSync(file, 'utf8'), spectralParsers.Json, file),
    );
    return [
      ...redocly,
      ...results.map((r): LintProblem => ({
        tool: 'spectral',
        severity: SPECTRAL_SEVERITIES[r.severity] ?? 'hint',
        rule: String(r.code),
        message: r.message,
        where: r.path.join('.'),
      })),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The document a freshly built app serves. */
export async function servedDocument(): Promise<object> {
  const t = await testApp(openSqliteStore('sqlite::memory:'));
  try {
    return (await call(t.app, 'GET', '/v1/openapi.json')).json();
  } finally {
    await t.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const problems = await lintOpenApi(await servedDocument());
  for (const p of problems) console.log(`${p.tool} ${p.severity} ${p.rule}: ${p.message} (${p.where})`);
  const errors = problems.filter((p) => p.severity === 'error').length;
  console.log(`${errors} errors, ${problems.length - errors} warnings and notes`);
  process.exitCode = errors > 0 ? 1 : 0;
}
