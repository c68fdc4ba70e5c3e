// search, show and versions: reading the registry.
import type { Command } from 'commander';
import { ApiError } from '../../domain/errors.js';
import type { KnowledgeUnit, SkillVersionSummary } from '../../domain/model.js';
import type { SkillSummary, UnitSummary } from '../../domain/summaries.js';
import { SKILL_FILTERS, UNIT_FILTERS } from '../../domain/filters.js';
import { SkillListQuery, UnitListQuery } from '../../http/schemas.js';
import { checked } from '../checks.js';
import { commandContext, type GlobalOptions, UsageError } from '../context.js';
import { columns, lines, oneLine, plural, shortDigest, size } from '../format.js';
import { fetchSkill, type ServedSkill } from '../install/resolve.js';
import { parseSpec } from './install.js';
import { onId } from './actions.js';

interface Page<T> {
  data: T[];
  total: number;
  offset: number;
  limit: number;
  capped?: boolean;
}

function pageFooter(page: Page<unknown>, noun: string): string {
  if (page.data.length === 0)
    return page.offset > 0 && page.total > 0
      ? `no more ${noun}s: all ${page.total} were on earlier pages`
      : `no ${noun}s match`;
  const range = `${page.offset + 1}-${page.offset + page.data.length}`;
  const more = page.offset + page.data.length < page.total ? ` (next: --offset ${page.offset + page.data.length})` : '';
  return `${range} of ${page.capped ? 'at least ' : ''}${plural(page.total, noun)}${more}`;
}

const skillLine = (s: SkillSummary) =>
  `${s.id}  ${s.name} ${s.version}  by ${s.agent_id}  quality ${s.quality_score.toFixed(2)}${s.visibility === 'private' ? '  [private]' : ''}\n    ${oneLine(s.description, 100)}`;
const unitLine = (u: UnitSummary) =>
  `${u.id}  ${oneLine(u.title, 70)}  [${u.type}, ${u.domain}]  quality ${u.quality_score.toFixed(2)}\n    ${oneLine(u.content.description, 100)}`;

export function showSkill(skill: ServedSkill): string {
  const files = skill.files ?? [];
  const version = skill.yanked
    ? `version ${skill.version} [YANKED: withdrawn by its publisher; the latest is ${skill.latest_version ?? 'none, every version is yanked'}]`
    : `version ${skill.version}${skill.latest_version && skill.latest_version !== skill.version ? ` (latest: ${skill.latest_version})` : ''}`;
  const header = lines(
    `${skill.name}  (${skill.id})`,
    version,
    skill.digest !== undefined && `digest ${skill.digest}`,
    `by ${skill.agent_id}, ${skill.visibility}, quality ${skill.quality_score}${skill.domain ? `, domain ${skill.domain}` : ''}`,
    skill.tags.length > 0 && `tags: ${skill.tags.join(', ')}`,
    skill.license !== null && `license: ${skill.license}`,
    `published ${skill.published_at ?? skill.updated_at}`,
    `files: SKILL.md${files.length > 0 ? ` and ${plural(files.length, 'more file')}` : ''}`,
    ...files.map((f) => `  ${f.path}  ${size(f.size ?? 0)}  ${f.digest ?? ''}`),
  );
  return `${header}\n\n${skill.skill_md_content}`;
}

export function showUnit(unit: KnowledgeUnit): string {
  const header = lines(
    `${unit.title}  (${unit.id})`,
    `${unit.type} in ${unit.domain}, by ${unit.agent_id}, quality ${unit.quality_score}, verdicts ${unit.validations.valid} valid / ${unit.validations.invalid} invalid`,
    unit.tags.length > 0 && `tags: ${unit.tags.join(', ')}`,
    `source: ${unit.metadata.source} (confidence ${unit.metadata.confidence})`,
  );
  const examples = unit.content.examples.map((example, i) => `\n\nexample ${i + 1}:\n${example}`).join('');
  return `${header}\n\n${unit.content.description}${examples}`;
}

interface SearchOptions {
  units?: boolean;
  limit?: string;
  offset?: string;
  [filter: string]: string | boolean | undefined;
}

/** Every list filter of either kind (the lists' declarations), with the kinds it filters. */
const FILTERS = Object.entries({ ...SKILL_FILTERS, ...UNIT_FILTERS }).map(([param, field]) => ({
  param,
  flag: `--${param.replace(/_/g, '-')}`,
  option: param.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
  description: (field.schema as { description?: string }).description ?? param,
  skills: param in SKILL_FILTERS,
  units: param in UNIT_FILTERS,
}));

const SEARCH_FLAGS = {
  q: 'the search words',
  limit: '--limit',
  offset: '--offset',
  ...Object.fromEntries(FILTERS.map((f) => [f.param, f.flag])),
};

export function browseCommands(program: Command): void {
  const search = program
    .command('search')
    .description('search skills (or knowledge units with --units); summaries, best first')
    .argument('[query...]', 'free text')
    .option('--units', 'search knowledge units instead of skills');
  for (const f of FILTERS)
    search.option(
      `${f.flag} <value>`,
      `${f.skills && f.units ? '' : f.skills ? 'skills: ' : 'units: '}${f.description}`,
    );
  search
    .option('--limit <n>', 'results per page, 1..100 (default 20)')
    .option('--offset <n>', 'results to skip')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg search extract tables from pdf\n  $ kreg search --units --types pattern,pitfall --tags http retries\n  $ kreg --json search pdf --limit 5 --offset 5',
    )
    .action(async (words: string[], options: SearchOptions, command: Command) => {
      const raw: Record<string, string | undefined> = {
        q: words.length > 0 ? words.join(' ') : undefined,
        limit: options.limit,
        offset: options.offset,
      };
      for (const f of FILTERS) {
        const value = options[f.option];
        if (value === undefined) continue;
        if (options.units && !f.units) throw new UsageError(`${f.flag} filters skills, not knowledge units`);
        if (!options.units && !f.skills) throw new UsageError(`${f.flag} filters knowledge units: add --units`);
        raw[f.param] = String(value);
      }
      const query = checked<Record<string, string | number | undefined>>(
        options.units ? UnitListQuery : SkillListQuery,
        dropUndefined(raw),
        { names: SEARCH_FLAGS },
      );
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      if (options.units) {
        const page = await ctx.client.get<Page<UnitSummary>>('/v1/knowledge', query);
        ctx.out.result(page, () => [...page.data.map(unitLine), pageFooter(page, 'knowledge unit')].join('\n'));
      } else {
        const page = await ctx.client.get<Page<SkillSummary>>('/v1/skills', query);
        ctx.out.result(page, () => [...page.data.map(skillLine), pageFooter(page, 'skill')].join('\n'));
      }
    });

  program
    .command('show')
    .description('show one skill (its version, digest, files and SKILL.md) or knowledge unit, by id')
    .argument('<id>', 'a skill or unit id, as search shows it; a skill id may name a version: sk_…@1.2.0')
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg show sk_3hX9…\n  $ kreg show sk_3hX9…@1.0.0       a version, yanked or not\n  $ kreg show ku_0192…',
    )
    .action(async (spec: string, _options: unknown, command: Command) => {
      const { id, version } = parseSpec(spec);
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      try {
        const data = await fetchSkill(ctx, id, version);
        ctx.out.result({ kind: 'skill', data }, () => showSkill(data));
        return;
      } catch (error) {
        if (!(error instanceof ApiError && error.statusCode === 404) || version !== undefined) throw error;
      }
      try {
        const { data } = await ctx.client.get<{ data: KnowledgeUnit }>(`/v1/knowledge/${encodeURIComponent(id)}`);
        ctx.out.result({ kind: 'knowledge_unit', data }, () => showUnit(data));
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 404)
          throw new ApiError(404, 'NOT_FOUND', `no skill or knowledge unit with id ${id}`);
        throw error;
      }
    });

  program
    .command('versions')
    .description("a skill's versions, newest first, with their digests; yanked ones marked")
    .argument('<id>', 'the skill id')
    .addHelpText('after', '\nExamples:\n  $ kreg versions sk_3hX9…\n  $ kreg --json versions sk_3hX9…')
    .action(
      onId('the skill id', async (ctx, id) => {
        const { data } = await ctx.client.get<{ data: SkillVersionSummary[] }>(
          `/v1/skills/${encodeURIComponent(id)}/versions`,
        );
        ctx.out.result(data, () =>
          data.length === 0
            ? 'no versions'
            : columns([
                ['version', 'published', 'files', 'digest', ''],
                ...data.map((v) => [
                  v.version,
                  v.published_at,
                  String(v.file_count),
                  shortDigest(v.digest),
                  v.yanked ? 'yanked' : '',
                ]),
              ]),
        );
      }),
    );
}

function dropUndefined<T extends Record<string, unknown>>(object: T): Partial<T> {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as Partial<T>;
}
