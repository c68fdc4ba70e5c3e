// install, outdated, update: skills written into <root>/<name>/ (.claude/skills by default) exactly and
// atomically (install/folder.ts), every file verified before anything is written (install/resolve.ts), and
// pinned in <root>/skills-lock.json (install/lockfile.ts) so that `install` with no argument reproduces the
// set and `outdated` / `update` move it to the newest versions that are not yanked. The commands' steps
// are in install/installing.ts; this file declares them and prints what they did.
import { join, resolve } from 'node:path';
import type { Command } from 'commander';
import { isVersion } from '../../domain/versions.js';
import { commandContext, type GlobalOptions, UsageError } from '../context.js';
import { columns, plural, shortDigest } from '../format.js';
import {
  installFromLock,
  installOne,
  statuses,
  updatePinned,
  type Installed,
  type InstallOptions,
} from '../install/installing.js';
import { LOCK_FILE, readLock } from '../install/lockfile.js';
import { withContext } from './actions.js';

const DEFAULT_ROOT = join('.claude', 'skills');

/** `sk_abc@1.2.0` → id and version; the id as the API takes it (1-64 characters). */
export function parseSpec(spec: string): { id: string; version?: string } {
  const at = spec.lastIndexOf('@');
  const [id, version] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, undefined];
  if (id.length < 1 || id.length > 64)
    throw new UsageError(`the skill id must have 1 to 64 characters, not ${JSON.stringify(id)}`);
  if (version !== undefined && !isVersion(version))
    throw new UsageError(`${JSON.stringify(version)} after @ must be a semantic version, e.g. ${id}@1.2.0`);
  return version === undefined ? { id } : { id, version };
}

function describeInstalled(done: Installed): string {
  const verified = done.files.filter((f) => f.verified).length;
  const checked =
    verified === done.files.length
      ? 'sha256 verified'
      : verified === 0
        ? 'NOT verified: the registry gave no digests'
        : `${verified} of ${done.files.length} verified by digest`;
  if (done.unchanged) return `${done.name} ${done.version} is already installed in ${done.dir} (unchanged)`;
  return `installed ${done.name} ${done.version} (${done.id}) into ${done.dir}: ${plural(done.files.length, 'file')}, ${shortDigest(done.digest)}, ${checked}${done.yanked ? ' [yanked]' : ''}`;
}

const rootOption = (command: Command) =>
  command.option('--root <folder>', `the folder that holds the installed skills and ${LOCK_FILE}`, DEFAULT_ROOT);

export function installCommands(program: Command): void {
  rootOption(
    program
      .command('install')
      .description(
        `install skills into <root>/<name>/ (default ${DEFAULT_ROOT}), verified and pinned in ${LOCK_FILE}; with no id, install exactly what ${LOCK_FILE} pins`,
      )
      .argument('[skills...]', 'skill ids, each optionally @version (sk_…@1.2.0)'),
  )
    .option('--dir <folder>', 'install one skill into exactly this folder, pinned in no lock file')
    .option(
      '--force',
      'replace a folder that holds files this command did not install, and reinstall what is unchanged',
    )
    .option('--allow-yanked', 'install a version its publisher yanked')
    .addHelpText(
      'after',
      `
Examples:
  $ kreg install sk_3hX9…                 latest version → ${DEFAULT_ROOT}/<name>/, pinned in ${LOCK_FILE}
  $ kreg install sk_3hX9…@1.2.0           that version
  $ kreg install                          every skill ${LOCK_FILE} pins, at its version and digest
  $ kreg install sk_3hX9… --dir vendor/x  into vendor/x, pinned nowhere`,
    )
    .action(async (specs: string[], options: InstallOptions, command: Command) => {
      if (options.dir !== undefined && specs.length !== 1) throw new UsageError('--dir takes exactly one skill id');
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const root = resolve(options.root);
      let done: Installed[];
      if (specs.length === 0) done = await installFromLock(ctx, { ...options, root });
      else {
        const lock = options.dir === undefined ? await readLock(root) : null;
        done = [];
        for (const spec of specs) done.push(await installOne(ctx, parseSpec(spec), { ...options, root }, lock));
      }
      ctx.out.result(done.length === 1 && specs.length === 1 ? done[0] : done, () =>
        done.map(describeInstalled).join('\n'),
      );
    });

  rootOption(
    program
      .command('outdated')
      .description(`list the skills ${LOCK_FILE} pins whose newest version that is not yanked is another`),
  )
    .addHelpText('after', '\nExamples:\n  $ kreg outdated\n  $ kreg --json outdated --root ~/.claude/skills')
    .action(
      withContext(async (ctx, options: { root: string }) => {
        const lock = await readLock(resolve(options.root));
        const all = await statuses(ctx, lock, []);
        const outdated = all.filter((s) => s.outdated || s.current_yanked);
        ctx.out.result(all, () =>
          outdated.length === 0
            ? `${plural(all.length, 'skill')} pinned, all at their newest version`
            : columns([
                ['skill', 'current', 'latest', ''],
                ...outdated.map((s) => [
                  s.dir,
                  s.current,
                  s.latest ?? '(none)',
                  s.current_yanked ? 'current version yanked' : '',
                ]),
              ]),
        );
      }),
    );

  rootOption(
    program
      .command('update')
      .description(
        `move pinned skills (all, or those named) to their newest version that is not yanked, and pin it in ${LOCK_FILE}`,
      )
      .argument('[names...]', `skill folders as ${LOCK_FILE} names them`),
  )
    .addHelpText('after', '\nExamples:\n  $ kreg update\n  $ kreg update pdf-tools')
    .action(
      withContext(async (ctx, names: string[], options: { root: string }) => {
        const root = resolve(options.root);
        const updated = await updatePinned(ctx, root, names);
        ctx.out.result(updated, () =>
          updated.length === 0
            ? 'every pinned skill is at its newest version'
            : updated.map((u) => `updated ${u.name} ${u.from} → ${u.to}`).join('\n'),
        );
      }),
    );
}
