// search and show: reading the registry.
import type { Command } from 'commander';
import { ApiError } from '../../domain/errors.js';
import type { KnowledgeUnit, Skill } from '../../domain/model.js';
import type { SkillSummary, UnitSummary } from '../../domain/summaries.js';
import { commandContext, type GlobalOptions, integerOption } from '../context.js';

interface Page<T> {
  data: T[];
  total: number;
  offset: number;
  limit: number;
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};

function pageFooter(page: Page<unknown>): string {
  const shown = page.data.length === 0 ? 'none' : `${page.offset + 1}-${page.offset + page.data.length}`;
  const more = page.offset + page.data.length < page.total ? ` (next: --offset ${page.offset + page.data.length})` : '';
  return `${shown} of ${page.total}${more}`;
}

const skillLine = (s: SkillSummary) =>
  `${s.id}  ${s.name}  by ${s.agent_id}  quality ${s.quality_score.toFixed(2)}${s.visibility === 'private' ? '  [private]' : ''}\n    ${oneLine(s.description, 100)}`;
const unitLine = (u: UnitSummary) =>
  `${u.id}  ${oneLine(u.title, 70)}  [${u.type}, ${u.domain}]  quality ${u.quality_score.toFixed(2)}\n    ${oneLine(u.content.description, 100)}`;

const lines = (...parts: (string | false)[]) => parts.filter((part): part is string => part !== false).join('\n');

function showSkill(skill: Skill): string {
  const header = lines(
    `${skill.name}  (${skill.id})`,
    `by ${skill.agent_id}, ${skill.visibility}, quality ${skill.quality_score}${skill.domain ? `, domain ${skill.domain}` : ''}`,
    skill.tags.length > 0 && `tags: ${skill.tags.join(', ')}`,
    skill.license !== null && `license: ${skill.license}`,
    `updated ${skill.updated_at}`,
  );
  return `${header}\n\n${skill.skill_md_content}`;
}

function showUnit(unit: KnowledgeUnit): string {
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
  domain?: string;
  tags?: string;
  types?: string;
  minQuality?: string;
  limit?: number;
  offset?: number;
}

export function browseCommands(program: Command): void {
  program
    .command('search')
    .description('search skills (or knowledge units with --units); summaries, best first')
    .argument('[query...]', 'free text')
    .option('--units', 'search knowledge units instead of skills')
    .option('--domain <domain>', 'only this domain')
    .option('--tags <list>', 'skills: comma-separated tags, every one required')
    .option('--types <list>', 'units: comma-separated unit types, any of')
    .option('--min-quality <score>', 'minimum quality score, 0..1')
    .option('--limit <n>', 'results per page, 1..100', integerOption('--limit', 1))
    .option('--offset <n>', 'results to skip', integerOption('--offset'))
    .action(async (words: string[], options: SearchOptions, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const query = {
        q: words.length > 0 ? words.join(' ') : undefined,
        domain: options.domain,
        min_quality: options.minQuality,
        limit: options.limit,
        offset: options.offset,
      };
      if (options.units) {
        const page = await ctx.client.get<Page<UnitSummary>>('/v1/knowledge', { ...query, types: options.types });
        ctx.out.result(page, () => [...page.data.map(unitLine), pageFooter(page)].join('\n'));
      } else {
        const page = await ctx.client.get<Page<SkillSummary>>('/v1/skills', { ...query, tags: options.tags });
        ctx.out.result(page, () => [...page.data.map(skillLine), pageFooter(page)].join('\n'));
      }
    });

  program
    .command('show')
    .description('show one skill (with its SKILL.md) or knowledge unit, by id')
    .argument('<id>', 'a skill or unit id, as search shows it')
    .action(async (id: string, _options: unknown, command: Command) => {
      const ctx = commandContext(command.optsWithGlobals<GlobalOptions>());
      const path = encodeURIComponent(id);
      try {
        const { data } = await ctx.client.get<{ data: Skill }>(`/v1/skills/${path}`);
        ctx.out.result({ kind: 'skill', data }, () => showSkill(data));
        return;
      } catch (error) {
        if (!(error instanceof ApiError && error.statusCode === 404)) throw error;
      }
      try {
        const { data } = await ctx.client.get<{ data: KnowledgeUnit }>(`/v1/knowledge/${path}`);
        ctx.out.result({ kind: 'knowledge_unit', data }, () => showUnit(data));
      } catch (error) {
        if (error instanceof ApiError && error.statusCode === 404) throw new ApiError(404, 'NOT_FOUND', `no skill or knowledge unit with id ${id}`);
        throw error;
      }
    });
}
