// Property-based fuzzing of what the command line prints (src/cli/format.ts, printable): `kreg search` and
// `kreg show`, run in process against a registry that answers with random text in every field (terminal
// escapes, C0 and C1 controls, bidi overrides, lone surrogates), with random error envelopes too.
//
//   1. no line printed, on stdout or stderr, with or without --json, holds a raw control character (C0 but
//      tab and line feed, DEL, C1) or a bidi override: each is shown escaped;
//   2. --json prints the registry's data exactly: parsed back, it is the value the registry sent.
//
// Runs: REG_FUZZ_RUNS (default 150); seed REG_FUZZ_SEED; REG_FUZZ_PATH replays a counterexample.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { terminal } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/program.js';
import { weirdString } from './arbitraries.js';
import { announce, fcParams, RUNS } from './harness.js';

/** What must never reach a terminal raw. */
const RAW_CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;

/** Pieces of text that drive a terminal: hide text, write the clipboard, retitle, clear, overwrite. */
const TERMINAL_PIECES = [
  '\u001b[8m',
  '\u001b[0m',
  '\u001b]52;c;ZXZpbA==\u0007',
  '\u001b]0;pwned\u0007',
  '\u001b]8;;https://evil.example\u001b\\',
  '\u009b2J',
  '\u009d0;title\u009c',
  '\u0007',
  '\r',
  '\r\n',
  '\b\b\b',
  '\u007f',
  '\u0085',
  '\u202e',
  '\u2066',
  '\u0000',
];
const control = fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c));
const hostile: fc.Arbitrary<string> = fc.oneof(
  weirdString,
  fc
    .array(fc.oneof(fc.constantFrom(...TERMINAL_PIECES), control, fc.string({ maxLength: 8 })), { maxLength: 8 })
    .map((parts) => parts.join('')),
);
const score = fc.double({ min: 0, max: 1, noNaN: true });
const extras = fc.dictionary(hostile, hostile, { maxKeys: 2 });

const skillSummary = fc.record({
  id: hostile,
  name: hostile,
  version: hostile,
  agent_id: hostile,
  description: hostile,
  quality_score: score,
  visibility: fc.constantFrom('public', 'private', '\u001b[8mprivate'),
});
const unitSummary = fc.record({
  id: hostile,
  title: hostile,
  type: hostile,
  domain: hostile,
  quality_score: score,
  content: fc.record({ description: hostile, examples: fc.array(hostile, { maxLength: 3 }) }),
});
const page = <T>(item: fc.Arbitrary<T>) =>
  fc.record({
    data: fc.array(item, { maxLength: 3 }),
    total: fc.nat(1000),
    offset: fc.nat(100),
    limit: fc.constant(20),
  });
const skill = fc.record({
  id: hostile,
  // Mostly a name that may be installed, so that show prints it; else the refusal names it.
  name: fc.oneof(fc.constant('pdf-tools'), hostile),
  agent_id: hostile,
  description: hostile,
  version: hostile,
  latest_version: fc.option(hostile),
  yanked: fc.boolean(),
  digest: fc.option(hostile, { nil: undefined }),
  visibility: hostile,
  quality_score: score,
  domain: fc.option(hostile),
  tags: fc.array(hostile, { maxLength: 3 }),
  license: fc.option(hostile),
  published_at: hostile,
  updated_at: hostile,
  files: fc.array(fc.record({ path: hostile, size: fc.nat(), digest: hostile }), { maxLength: 2 }),
  skill_md_content: hostile,
});
const unit = fc.record({
  id: hostile,
  agent_id: hostile,
  title: hostile,
  type: hostile,
  domain: hostile,
  content: fc.record({ description: hostile, examples: fc.array(hostile, { maxLength: 3 }) }),
  metadata: fc.record({ source: hostile, confidence: score }),
  tags: fc.array(hostile, { maxLength: 3 }),
  quality_score: score,
  validations: fc.record({ valid: fc.nat(), invalid: fc.nat() }),
});
const refusal = fc.record({
  status: fc.constantFrom(400, 403, 409, 500),
  body: fc.record({ error: fc.record({ code: hostile, message: hostile }) }),
});

interface Case {
  command: 'search' | 'search --units' | 'show skill' | 'show unit';
  json: boolean;
  /** What the registry answers: its data (with fields of its own added), or a refusal. */
  answer: { data: unknown } | { refused: { status: number; body: unknown } };
}

const withExtras = <T extends object>(value: fc.Arbitrary<T>) =>
  fc.tuple(value, extras).map(([v, more]) => ({ ...more, ...v }));

const cases: fc.Arbitrary<Case> = fc
  .constantFrom('search', 'search --units', 'show skill', 'show unit')
  .chain((command) => {
    const data = {
      search: withExtras(page(withExtras(skillSummary))),
      'search --units': withExtras(page(withExtras(unitSummary))),
      'show skill': withExtras(skill),
      'show unit': withExtras(unit),
    }[command] as fc.Arbitrary<unknown>;
    return fc.record({
      command: fc.constant(command),
      json: fc.boolean(),
      answer: fc.oneof(
        { weight: 4, arbitrary: data.map((d) => ({ data: d })) },
        { weight: 1, arbitrary: refusal.map((r) => ({ refused: r })) },
      ),
    });
  });

/** Collects what is written to it, as text. */
class Collector extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('what kreg search and kreg show print, whatever the registry sends', () => {
  let server: Server;
  let url: string;
  let current: Case;
  let config: string;
  const saved = { XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME };

  before(async () => {
    // No stored login of this machine's user is read.
    config = mkdtempSync(join(tmpdir(), 'kreg-fuzz-'));
    process.env.XDG_CONFIG_HOME = config;
    server = createServer((request, response) => {
      const path = new URL(request.url ?? '/', 'http://x').pathname;
      const send = (status: number, body: unknown) =>
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      const answer = current.answer;
      // show asks for a skill first, then (on 404) for a unit of that id.
      if (current.command === 'show unit' && path.startsWith('/v1/skills/'))
        return send(404, { error: { code: 'NOT_FOUND', message: 'no such skill' } });
      if ('refused' in answer) return send(answer.refused.status, answer.refused.body);
      const wrapped = current.command.startsWith('search') ? answer.data : { data: answer.data };
      send(200, wrapped);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    if (saved.XDG_CONFIG_HOME === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved.XDG_CONFIG_HOME;
    rmSync(config, { recursive: true, force: true });
  });

  async function run(c: Case): Promise<{ code: number; stdout: string; stderr: string }> {
    current = c;
    const args = {
      search: ['search', 'pdf'],
      'search --units': ['search', '--units', 'pdf'],
      'show skill': ['show', 'sk_1'],
      'show unit': ['show', 'ku_1'],
    }[c.command];
    const stdout = new Collector();
    const stderr = new Collector();
    const streams = { ...terminal };
    Object.assign(terminal, { stdout, stderr });
    try {
      const argv = ['node', 'kreg', '--url', url, '--retries', '0', ...(c.json ? ['--json'] : []), ...args];
      return { code: await runCli(argv), stdout: stdout.text, stderr: stderr.text };
    } finally {
      Object.assign(terminal, streams);
    }
  }

  it('prints no raw control character, and --json gives back exactly what the registry sent', async (t) => {
    announce(t, RUNS);
    await fc.assert(
      fc.asyncProperty(cases, async (c) => {
        const printed = await run(c);
        for (const [where, text] of Object.entries({ stdout: printed.stdout, stderr: printed.stderr })) {
          for (const [i, line] of text.split('\n').entries()) {
            const raw = RAW_CONTROL.exec(line);
            assert.equal(
              raw,
              null,
              `${where} line ${i + 1} holds U+${raw?.[0].charCodeAt(0).toString(16).padStart(4, '0')}: ${JSON.stringify(line)}`,
            );
          }
        }
        assert.notEqual(printed.stdout + printed.stderr, '', 'something is printed');
        if (!c.json || 'refused' in c.answer) return;
        if (printed.code !== 0) return; // a skill name that may not be installed: refused, and printed as such
        const sent = JSON.parse(JSON.stringify(c.answer.data));
        const expected = c.command.startsWith('search')
          ? sent
          : { kind: c.command === 'show skill' ? 'skill' : 'knowledge_unit', data: sent };
        assert.deepEqual(JSON.parse(printed.stdout), expected);
      }),
      fcParams(RUNS),
    );
  });
});
