// publish: a SKILL.md file, or a skill folder (its SKILL.md plus every other file as the bundle: `files:
// [{path, content_base64}]`). A folder that holds nothing but SKILL.md is published as the file. What the
// registry would refuse is refused here first, by the same rules (exit 2): the body's schema, SKILL.md's
// required fields, and the one rule for bundle paths and sizes.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { checkBundle } from '../../domain/bundles.js';
import { ApiError } from '../../domain/errors.js';
import type { Skill } from '../../domain/model.js';
import { parseSkillMd } from '../../domain/skill-md.js';
import type { SkillSummary } from '../../domain/summaries.js';
import { SkillBody } from '../../http/schemas.js';
import { checked } from '../checks.js';
import { CommandFailed, commandContext, type CommandContext, type GlobalOptions, UsageError } from '../context.js';
import { plural } from '../format.js';
import { whoami } from './account.js';

interface BundleFile {
  path: string;
  content_base64: string;
}

/** Regular files under `root`, `/`-separated paths; hidden files and folders (.git, .DS_Store) and links are left out. */
function bundleFiles(root: string, prefix = ''): BundleFile[] {
  const files: BundleFile[] = [];
  for (const name of readdirSync(join(root, prefix)).sort()) {
    if (name.startsWith('.')) continue;
    const path = prefix ? `${prefix}/${name}` : name;
    const stat = lstatSync(join(root, path));
    if (stat.isDirectory()) files.push(...bundleFiles(root, path));
    else if (stat.isFile() && path !== 'SKILL.md')
      files.push({ path, content_base64: readFileSync(join(root, path)).toString('base64') });
  }
  return files;
}

function readSkill(path: string): { content: string; files: BundleFile[]; folder: string | null } {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    throw new UsageError(`no such file or folder: ${path}`);
  }
  if (stat.isDirectory()) {
    const skillMd = join(path, 'SKILL.md');
    try {
      return { content: readFileSync(skillMd, 'utf8'), files: bundleFiles(path), folder: path };
    } catch {
      throw new UsageError(`${path} has no SKILL.md: a skill folder holds its SKILL.md at the top`);
    }
  }
  if (basename(path) !== 'SKILL.md' && !path.endsWith('.md'))
    throw new UsageError(`${path} is not a SKILL.md file or a skill folder`);
  return { content: readFileSync(path, 'utf8'), files: [], folder: null };
}

/** The visibility of the skill of this name the caller already has (a new version keeps it), if any. */
async function currentVisibility(ctx: CommandContext, name: string): Promise<'public' | 'private' | null> {
  try {
    const agent = (await whoami(ctx)).agent_id;
    const page = await ctx.client.get<{ data: SkillSummary[] }>('/v1/skills', { publisher: agent, name, limit: 1 });
    return page.data[0]?.visibility ?? null;
  } catch (error) {
    // A registry without these reads (an older one) publishes a new skill as public, as before.
    if (error instanceof ApiError && (error.statusCode === 400 || error.statusCode === 404)) return null;
    throw error;
  }
}

export function publishCommand(program: Command): void {
  program
    .command('publish')
    .description(
      'publish a skill: a SKILL.md file, or a folder with SKILL.md and its other files; a name you have gets a new version',
    )
    .argument('<path>', 'SKILL.md, or the skill folder')
    .option('--private', 'visible only to you (and admins)')
    .option('--public', "visible to everyone (the default for a new skill; a new version keeps its skill's visibility)")
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg publish ./skills/pdf-tools          SKILL.md and every other file (dotfiles left out)\n  $ kreg publish SKILL.md --private',
    )
    .action(async (path: string, options: { private?: boolean; public?: boolean }, command: Command) => {
      if (options.private && options.public) throw new UsageError('give at most one of --private and --public');
      const { content, files, folder } = readSkill(path);
      const parsed = parseSkillMd(content);
      if (!parsed.ok) throw new UsageError(`${folder ? join(folder, 'SKILL.md') : path}: ${parsed.message}`);
      const bundle = checkBundle(files);
      if (!bundle.ok) {
        const index = /^files\.(\d+)/.exec(bundle.field)?.[1];
        const file = index === undefined ? '' : `${join(folder ?? '', files[Number(index)]!.path)}: `;
        throw new UsageError(`${file}${bundle.message}`);
      }
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const visibility = options.private
        ? 'private'
        : options.public
          ? 'public'
          : ((await currentVisibility(ctx, parsed.skill.name)) ?? 'public');
      const body = checked(
        SkillBody,
        { skill_md_content: content, visibility, ...(files.length > 0 ? { files } : {}) },
        { coerce: false },
      );
      let answer: { status: number; body: { data: Skill; warnings: string[] } };
      try {
        answer = await ctx.client.post<{ data: Skill; warnings: string[] }>('/v1/skills', body);
      } catch (error) {
        if (
          files.length > 0 &&
          error instanceof ApiError &&
          error.statusCode === 400 &&
          /^files\b/.test(error.message) &&
          /is not a known field/.test(error.message)
        ) {
          throw new CommandFailed(
            `bundles not supported by this registry (it refused the files: ${error.message}); publish ${join(path, 'SKILL.md')} alone`,
            'BUNDLES_UNSUPPORTED',
          );
        }
        throw error;
      }
      const { data: skill, warnings } = answer.body;
      const unchanged = answer.status === 200;
      const contents = files.length > 0 ? `SKILL.md and ${plural(files.length, 'more file')}` : 'SKILL.md';
      ctx.out.result({ ...answer.body, files: files.map((f) => f.path), unchanged }, () =>
        [
          unchanged
            ? `unchanged: ${skill.name} ${skill.version} (${skill.id}) already has this content (${skill.digest}); nothing was published`
            : `published ${skill.name} ${skill.version} (${skill.id}), ${skill.visibility}, quality ${skill.quality_score}, ${contents}, ${skill.digest}`,
          ...warnings.map((w) => `warning: ${w}`),
        ].join('\n'),
      );
    });
}
