// audit: what the registry knows today about every version skills-lock.json pins (advisories, holds,
// verdicts, yanks), asked in one request per 1,000 locked skills; the command fails (exit 1) when anything
// at or above --level affects a locked version, as `npm audit` does.
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { Option } from 'commander';
import { ADVISORY_SEVERITIES, type AdvisorySeverity } from '../../domain/advisories.js';
import { EXIT } from '../context.js';
import { columns, plural } from '../format.js';
import { LOCK_FILE, readLock } from '../install/lockfile.js';
import { withContext } from './actions.js';

interface AuditEntry {
  id: string;
  version: string;
  found: boolean;
  yanked: boolean;
  held: boolean;
  verdict: string | null;
  advisories: {
    id: string;
    summary: string;
    affected: { database_specific: { skill_id: string; severity: AdvisorySeverity } }[];
  }[];
}

/** One thing wrong with a locked version, weighed like an advisory. */
interface Problem {
  dir: string;
  id: string;
  version: string;
  severity: AdvisorySeverity;
  what: string;
}

const RANK: Record<AdvisorySeverity, number> = { low: 0, moderate: 1, high: 2, critical: 3 };
const QUERY_LIMIT = 1_000;

/**
 * What an answer says about one locked version, each weighed: a hold and a `malicious` verdict are
 * critical, a `suspicious` verdict moderate, a yank or a version no longer served low, an advisory its own
 * severity.
 */
function problemsOf(dir: string, entry: AuditEntry): Problem[] {
  const at = { dir, id: entry.id, version: entry.version };
  if (!entry.found) return [{ ...at, severity: 'low', what: 'no longer served by the registry (removed or private)' }];
  const problems: Problem[] = [];
  if (entry.held) problems.push({ ...at, severity: 'critical', what: 'held by the moderators' });
  if (entry.verdict === 'malicious') problems.push({ ...at, severity: 'critical', what: 'scanned: malicious' });
  if (entry.verdict === 'suspicious') problems.push({ ...at, severity: 'moderate', what: 'scanned: suspicious' });
  if (entry.yanked) problems.push({ ...at, severity: 'low', what: 'yanked by its publisher' });
  for (const advisory of entry.advisories) {
    const mine = advisory.affected.find((a) => a.database_specific.skill_id === entry.id);
    problems.push({
      ...at,
      severity: mine?.database_specific.severity ?? 'critical',
      what: `${advisory.id}: ${advisory.summary}`,
    });
  }
  return problems;
}

export function auditCommand(program: Command): void {
  program
    .command('audit')
    .description(
      `report advisories, holds, verdicts and yanks that affect the versions ${LOCK_FILE} pins; exit 1 at or above --level`,
    )
    .option('--root <folder>', `the folder that holds ${LOCK_FILE}`, '.claude/skills')
    .addOption(
      new Option('--level <severity>', 'the lowest severity that fails the audit')
        .choices([...ADVISORY_SEVERITIES])
        .default('moderate'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  $ kreg audit\n  $ kreg audit --level high\n  $ kreg --json audit --root ~/.claude/skills',
    )
    .action(
      withContext(async (ctx, options: { root: string; level: AdvisorySeverity }) => {
        const lock = await readLock(resolve(options.root));
        const locked = Object.entries(lock.skills);
        const answers: AuditEntry[] = [];
        for (let i = 0; i < locked.length; i += QUERY_LIMIT) {
          const skills = locked.slice(i, i + QUERY_LIMIT).map(([, e]) => ({ id: e.id, version: e.version }));
          const { body } = await ctx.client.post<{ data: AuditEntry[] }>('/v1/advisories/query', { skills });
          answers.push(...body.data);
        }
        const problems = locked.flatMap(([dir], i) => (answers[i] ? problemsOf(dir, answers[i]) : []));
        const failing = problems.filter((p) => RANK[p.severity] >= RANK[options.level]);
        ctx.out.result(
          { skills: locked.map(([dir], i) => ({ dir, ...answers[i] })), problems, level: options.level },
          () =>
            problems.length === 0
              ? `${plural(locked.length, 'locked skill')}: nothing known against them`
              : [
                  columns([
                    ['skill', 'version', 'severity', ''],
                    ...problems.map((p) => [p.dir, p.version, p.severity, p.what]),
                  ]),
                  `${plural(problems.length, 'problem')} in ${plural(locked.length, 'locked skill')}; ${failing.length} at or above ${options.level}`,
                ].join('\n'),
        );
        if (failing.length > 0) process.exitCode = EXIT.failed;
      }),
    );
}
