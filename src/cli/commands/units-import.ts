// units import: a JSONL file of knowledge-unit bodies, one POST /v1/knowledge each, a few at a time. Each line
// is sent with an Idempotency-Key made from its text, so running the import again (after an interruption)
// within 24 hours replays the units already stored instead of storing them twice. Rate limits are waited
// out (each wait at most a minute, told and counted down), and the estimate of the time left ignores them.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import type { Command } from 'commander';
import { ApiError } from '../../domain/errors.js';
import type { RegistryClient } from '../client.js';
import { EXIT, commandContext, type GlobalOptions, integerOption, UsageError } from '../context.js';
import { plural } from '../format.js';
import { Progress } from '../progress.js';

/** Line numbers kept per refusal reason, to point at. */
const LINES_PER_REASON = 10;
/** Rate-limit waits per line before it counts as refused: at a minute each, a long import keeps going. */
const RATE_LIMIT_WAITS = 30;

interface Reason {
  code: string;
  message: string;
  count: number;
  lines: number[];
}

interface Summary {
  file: string;
  lines: number;
  imported: number;
  /** Sent by an earlier run: the registry replayed its answer, nothing was stored twice. */
  already_imported: number;
  refused: number;
  reasons: Reason[];
}

async function* nonEmptyLines(file: string): AsyncGenerator<{ number: number; text: string }> {
  let number = 0;
  for await (const text of createInterface({
    input: createReadStream(file, 'utf8'),
    crlfDelay: Number.POSITIVE_INFINITY,
  })) {
    number++;
    if (text.trim() !== '') yield { number, text };
  }
}

async function countLines(file: string): Promise<number> {
  let count = 0;
  for await (const _ of nonEmptyLines(file)) count++;
  return count;
}

type Outcome = { ok: true; replayed: boolean } | { ok: false; code: string; message: string };

async function importLine(client: RegistryClient, text: string): Promise<Outcome> {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    return { ok: false, code: 'INVALID_JSON', message: `the line is not JSON (${(error as Error).message})` };
  }
  const idempotencyKey = `units-import:${createHash('sha256').update(text).digest('hex')}`;
  try {
    const answer = await client.post('/v1/knowledge', body, { idempotencyKey });
    return { ok: true, replayed: answer.headers['idempotent-replayed'] === 'true' };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // A refused key or missing scope refuses every line alike: stop at once.
    if (error.statusCode === 401 || (error.statusCode === 403 && /scope/.test(error.message))) throw error;
    return { ok: false, code: error.code, message: error.message };
  }
}

function describe(summary: Summary): string {
  const head = `${summary.file}: ${summary.imported} imported, ${summary.already_imported} already imported, ${summary.refused} refused (of ${plural(summary.lines, 'line')})`;
  const reasons = summary.reasons.map(
    (r) =>
      `  ${r.count} × ${r.code}: ${r.message}\n      ${r.lines.length === 1 ? 'line' : 'lines'} ${r.lines.join(', ')}${r.count > r.lines.length ? ', …' : ''}`,
  );
  return [head, ...(reasons.length > 0 ? ['refused, by reason:', ...reasons] : [])].join('\n');
}

export function importCommand(units: Command): void {
  units
    .command('import')
    .description(
      'contribute every knowledge unit of a JSONL file (one unit body per line); re-running it stores nothing twice',
    )
    .argument('<file>', 'a .jsonl file')
    .option('--concurrency <n>', 'requests at once', integerOption('--concurrency', 1), 4)
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg units import units.jsonl\n  $ kreg --json units import units.jsonl --concurrency 8 > summary.json',
    )
    .action(async (file: string, options: { concurrency: number }, command: Command) => {
      if (!existsSync(file)) throw new UsageError(`no such file: ${file}`);
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>(), { rateLimitWaits: RATE_LIMIT_WAITS });
      const total = await countLines(file);
      const summary: Summary = { file, lines: total, imported: 0, already_imported: 0, refused: 0, reasons: [] };
      const byReason = new Map<string, Reason>();
      const terminal = process.stderr.isTTY && !ctx.out.json;
      const { SingleBar } = await import('cli-progress');
      const bar = terminal
        ? new SingleBar({
            stream: process.stderr,
            format: 'importing [{bar}] {value}/{total} units | {status}',
            hideCursor: true,
          })
        : null;
      const progress = new Progress(total, bar, terminal ? null : (line) => ctx.out.note(line));
      ctx.client.onWait = (wait) => progress.waiting(wait);
      const lines = nonEmptyLines(file);
      const worker = async () => {
        for (let next = await lines.next(); !next.done; next = await lines.next()) {
          const { number, text } = next.value;
          const outcome = await importLine(ctx.client, text);
          if (outcome.ok) {
            if (outcome.replayed) summary.already_imported++;
            else summary.imported++;
          } else {
            summary.refused++;
            const key = `${outcome.code}\u0000${outcome.message}`;
            const reason = byReason.get(key) ?? { code: outcome.code, message: outcome.message, count: 0, lines: [] };
            byReason.set(key, reason);
            reason.count++;
            if (reason.lines.length < LINES_PER_REASON) reason.lines.push(number);
          }
          progress.increment();
        }
      };
      try {
        await Promise.all(Array.from({ length: options.concurrency }, worker));
      } finally {
        progress.stop();
      }
      summary.reasons = [...byReason.values()]
        .sort((a, b) => b.count - a.count)
        .map((r) => ({ ...r, lines: r.lines.sort((a, b) => a - b) }));
      ctx.out.result(summary, () => describe(summary));
      if (summary.refused > 0) process.exitCode = EXIT.failed;
    });
}
