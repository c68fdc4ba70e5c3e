// yank, unyank and delete: what a publisher (or an admin) does to skills already published.
import type { Command } from 'commander';
import type { Skill, SkillVersionSummary } from '../../domain/model.js';
import { commandContext, CommandFailed, type GlobalOptions, UsageError } from '../context.js';
import { plural } from '../format.js';
import { confirmed } from '../prompt.js';
import { parseSpec } from './install.js';
import { onId } from './actions.js';

const path = (...segments: string[]) => `/${segments.map(encodeURIComponent).join('/')}`;

/** `sk_…@1.0.1` with its version required. */
function versionSpec(spec: string, command: string): { id: string; version: string } {
  const { id, version } = parseSpec(spec);
  if (version === undefined)
    throw new UsageError(`name the version: kreg ${command} ${id}@<version> (kreg versions ${id} lists them)`);
  return { id, version };
}

export function lifecycleCommands(program: Command): void {
  for (const [name, yanked] of [
    ['yank', true],
    ['unyank', false],
  ] as const) {
    program
      .command(name)
      .description(
        yanked
          ? 'withdraw a version: it stays readable by its number, flagged, but is never the latest and is not installed without --allow-yanked'
          : 'restore a yanked version',
      )
      .argument('<id@version>', 'the skill id and the version, e.g. sk_3hX9…@1.0.1')
      .addHelpText('after', `\nExamples:\n  $ kreg ${name} sk_3hX9…@1.0.1\n  $ kreg --json ${name} sk_3hX9…@1.0.1`)
      .action(async (spec: string, _options: unknown, command: Command) => {
        const { id, version } = versionSpec(spec, name);
        const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
        const { body } = await ctx.client.post<{ data: Skill }>(
          path('v1', 'skills', id, 'versions', version, name),
          undefined,
        );
        const skill = body.data;
        ctx.out.result(
          skill,
          () =>
            `${yanked ? 'yanked' : 'restored'} ${skill.name} ${skill.version} (${skill.id}); the latest version is now ${skill.latest_version ?? 'none: every version is yanked'}`,
        );
      });
  }

  program
    .command('delete')
    .description(
      'delete a skill permanently: every version and file (its publisher or an admin); asks first unless --yes',
    )
    .argument('<id>', 'the skill id')
    .option('--yes', 'do not ask (needed when there is no terminal)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg delete sk_3hX9…          asks you to type the skill name\n  $ kreg delete sk_3hX9… --yes    in scripts',
    )
    .action(
      onId('the skill id', async (ctx, id, options: { yes?: boolean }) => {
        const { data: skill } = await ctx.client.get<{ data: Skill }>(path('v1', 'skills', id));
        const { data: versions } = await ctx.client.get<{ data: SkillVersionSummary[] }>(
          path('v1', 'skills', id, 'versions'),
        );
        const what = `Deleting ${skill.name} (${skill.id}) with ${plural(versions.length, 'version')} and every file`;
        if (!(await confirmed(what, skill.name, options.yes)))
          throw new CommandFailed(`not deleted: the name typed was not ${skill.name}`, 'NOT_CONFIRMED');
        const { body } = await ctx.client.delete<{ data: { id: string; deleted: boolean } }>(path('v1', 'skills', id));
        ctx.out.result(
          { ...body.data, name: skill.name, versions: versions.length },
          () => `deleted ${skill.name} (${skill.id}) and ${plural(versions.length, 'version')}`,
        );
      }),
    );
}
