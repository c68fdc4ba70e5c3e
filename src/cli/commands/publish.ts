// publish: a SKILL.md file, or a skill folder (its SKILL.md plus every other file as the bundle, issue 14's
// body: `files: [{path, content_base64}]`). A folder that holds nothing but SKILL.md is published as the file.
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Command } from 'commander';
import { ApiError } from '../../domain/errors.js';
import type { Skill } from '../../domain/model.js';
import { CommandFailed, commandContext, type GlobalOptions, UsageError } from '../context.js';

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
    else if (stat.isFile() && path !== 'SKILL.md') files.push({ path, content_base64: readFileSync(join(root, path)).toString('base64') });
  }
  return files;
}

function readSkill(path: string): { content: string; files: BundleFile[] } {
  let stat: ReturnType<typeof lstatSync>;
  try {
    stat = lstatSync(path);
  } catch {
    throw new UsageError(`no such file or folder: ${path}`);
  }
  if (stat.isDirectory()) {
    const skillMd = join(path, 'SKILL.md');
    try {
      return { content: readFileSync(skillMd, 'utf8'), files: bundleFiles(path) };
    } catch {
      throw new UsageError(`${path} has no SKILL.md: a skill folder holds its SKILL.md at the top`);
    }
  }
  if (basename(path) !== 'SKILL.md' && !path.endsWith('.md')) throw new UsageError(`${path} is not a SKILL.md file or a skill folder`);
  return { content: readFileSync(path, 'utf8'), files: [] };
}

export function publishCommand(program: Command): void {
  program
    .command('publish')
    .description('publish a skill: a SKILL.md file, or a folder with SKILL.md and its other files')
    .argument('<path>', 'SKILL.md, or the skill folder')
    .option('--private', 'visible only to you (and admins)')
    .action(async (path: string, options: { private?: boolean }, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const { content, files } = readSkill(path);
      const body = { skill_md_content: content, visibility: options.private ? 'private' : 'public', ...(files.length > 0 ? { files } : {}) };
      let answer: { data: Skill; warnings: string[] };
      try {
        answer = (await ctx.client.post<{ data: Skill; warnings: string[] }>('/v1/skills', body)).body;
      } catch (error) {
        if (files.length > 0 && error instanceof ApiError && error.statusCode === 400 && /\bfiles\b/.test(error.message)) {
          throw new CommandFailed(
            `bundles not supported by this registry (it refused the files: ${error.message}); publish ${join(path, 'SKILL.md')} alone`,
            'BUNDLES_UNSUPPORTED',
          );
        }
        throw error;
      }
      const { data: skill, warnings } = answer;
      ctx.out.result({ ...answer, files: files.map((f) => f.path) }, () =>
        [
          `published ${skill.name} (${skill.id}), ${skill.visibility}, quality ${skill.quality_score}${files.length > 0 ? `, with ${files.length} more files` : ''}`,
          ...warnings.map((w) => `warning: ${w}`),
        ].join('\n'),
      );
    });
}
