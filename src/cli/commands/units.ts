// units show|add|validate|delete|import: knowledge units one at a time, and in bulk (units-import.ts).
import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import type { KnowledgeUnit } from '../../domain/model.js';
import { UnitBody, VerdictBody } from '../../http/schemas.js';
import { checked } from '../checks.js';
import { commandContext, CommandFailed, type GlobalOptions, UsageError } from '../context.js';
import { oneLine } from '../format.js';
import { confirmed } from '../prompt.js';
import { showUnit } from './browse.js';
import { importCommand } from './units-import.js';
import { idArgument, onId } from './actions.js';

const unitPath = (id: string, ...rest: string[]) => ['/v1/knowledge', encodeURIComponent(id), ...rest].join('/');

/** A JSON document from a file, or from stdin for `-`. */
function readJson(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch {
    throw new UsageError(`no such file: ${file}`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

export function unitsCommands(program: Command): void {
  const units = program
    .command('units')
    .description('knowledge units: show, add, validate, delete, import')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg units show ku_0192…\n  $ kreg units validate ku_0192… --valid --feedback "worked for me"\n  $ kreg units import units.jsonl',
    );

  units
    .command('show')
    .description('one knowledge unit, whole')
    .argument('<id>', 'the unit id')
    .addHelpText('after', '\nExamples:\n  $ kreg units show ku_0192…\n  $ kreg --json units show ku_0192…')
    .action(
      onId('the unit id', async (ctx, id) => {
        const { data } = await ctx.client.get<{ data: KnowledgeUnit }>(unitPath(id));
        ctx.out.result(data, () => showUnit(data));
      }),
    );

  units
    .command('add')
    .description('contribute one knowledge unit from a JSON file (- for stdin), checked against the API schema first')
    .argument('<file>', 'a JSON file with one unit body: title, type, domain, content, metadata, tags')
    .addHelpText('after', '\nExamples:\n  $ kreg units add unit.json\n  $ cat unit.json | kreg units add -')
    .action(async (file: string, _options: unknown, command: Command) => {
      const body = checked(UnitBody, readJson(file), { where: file, coerce: false });
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const { body: answer } = await ctx.client.post<{
        data: KnowledgeUnit;
        quality_score: number;
        warnings?: string[];
      }>('/v1/knowledge', body);
      ctx.out.result(answer, () =>
        [
          `added ${answer.data.id}: ${oneLine(answer.data.title, 70)} (quality ${answer.quality_score})`,
          ...(answer.warnings ?? []).map((w) => `warning: ${w}`),
        ].join('\n'),
      );
    });

  units
    .command('validate')
    .description("give your verdict on another agent's unit: --valid or --invalid (a later verdict replaces yours)")
    .argument('<id>', 'the unit id')
    .option('--valid', 'the unit is right')
    .option('--invalid', 'the unit is wrong')
    .option('--feedback <text>', 'why (at most 5000 characters)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg units validate ku_0192… --valid\n  $ kreg units validate ku_0192… --invalid --feedback "the retry count is off by one"',
    )
    .action(
      async (id: string, options: { valid?: boolean; invalid?: boolean; feedback?: string }, command: Command) => {
        idArgument(id, 'the unit id');
        if (Boolean(options.valid) === Boolean(options.invalid))
          throw new UsageError('give exactly one of --valid and --invalid');
        const body = checked(
          VerdictBody,
          { valid: Boolean(options.valid), ...(options.feedback !== undefined ? { feedback: options.feedback } : {}) },
          {
            names: { feedback: '--feedback' },
            coerce: false,
          },
        );
        const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
        const { body: answer } = await ctx.client.post<{ data: { id: string; validated: boolean; feedback: string } }>(
          unitPath(id, 'validate'),
          body,
        );
        ctx.out.result(
          answer.data,
          () => `recorded your verdict on ${answer.data.id}: ${answer.data.validated ? 'valid' : 'invalid'}`,
        );
      },
    );

  units
    .command('delete')
    .description('delete one of your units permanently (admins: any unit); asks first unless --yes')
    .argument('<id>', 'the unit id')
    .option('--yes', 'do not ask (needed when there is no terminal)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg units delete ku_0192…         asks you to type the id\n  $ kreg units delete ku_0192… --yes',
    )
    .action(
      onId('the unit id', async (ctx, id, options: { yes?: boolean }) => {
        const { data: unit } = await ctx.client.get<{ data: KnowledgeUnit }>(unitPath(id));
        const what = `Deleting the knowledge unit "${oneLine(unit.title, 60)}" (${unit.id}) and its verdicts`;
        if (!(await confirmed(what, unit.id, options.yes)))
          throw new CommandFailed(`not deleted: the id typed was not ${unit.id}`, 'NOT_CONFIRMED');
        const { body } = await ctx.client.delete<{ data: { id: string; deleted: boolean } }>(unitPath(id));
        ctx.out.result(body.data, () => `deleted ${unit.id}`);
      }),
    );

  importCommand(units);
}
