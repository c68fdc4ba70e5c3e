// Skill schemas: the list query, the contribution body, the answers around the domain's Skill, the
// version and file parameters, a skill as exported, and the Agent Skills discovery index.
import { Type, type Static } from 'typebox';
import { MAX_BUNDLE_BYTES, MAX_BUNDLE_FILES, MAX_FILE_BYTES, MAX_PATH_LENGTH } from '../../domain/bundles.js';
import { Skill, SkillFile, SkillSummary, SkillVersionSummary, VisibilitySchema } from '../../domain/model.js';
import { MAX_SKILL_MD_CHARS } from '../../domain/skill-md/limits.js';
import { closed, Limit, Offset, pageOf, Q, Timestamp } from './common.js';
import { filterSchemas, SKILL_FILTERS } from '../../domain/filters.js';

export const SkillListQuery = Type.Object(
  { q: Q, ...filterSchemas(SKILL_FILTERS), limit: Limit, offset: Offset },
  closed,
);
export type SkillListQuery = Static<typeof SkillListQuery>;

export const SkillBody = Type.Object(
  {
    skill_md_content: Type.String({ minLength: 1, maxLength: MAX_SKILL_MD_CHARS }),
    visibility: VisibilitySchema,
    files: Type.Optional(
      Type.Array(
        Type.Object(
          {
            path: Type.String({
              minLength: 1,
              maxLength: MAX_PATH_LENGTH,
              description: 'relative, / between folders (scripts/extract.py)',
            }),
            content_base64: Type.String({ maxLength: Math.ceil((MAX_FILE_BYTES * 4) / 3) + 4 }),
          },
          closed,
        ),
        {
          maxItems: MAX_BUNDLE_FILES,
          description: `the bundle besides SKILL.md: at most ${MAX_BUNDLE_FILES} files of ${MAX_FILE_BYTES} bytes, ${MAX_BUNDLE_BYTES} in all`,
        },
      ),
    ),
  },
  closed,
);
export type SkillBody = Static<typeof SkillBody>;

export const SkillCreated = Type.Object(
  {
    data: Skill,
    warnings: Type.Array(Type.String(), {
      description: 'the findings, as messages (data.conformance.warnings has them with their kinds)',
    }),
  },
  {
    description:
      'The skill version as stored: a new skill or version (201), or the version that has this content already (200)',
  },
);
export const SkillOne = Type.Object(
  { data: Skill },
  { description: 'The skill at one version, with its SKILL.md and file list' },
);
export const SkillPage = pageOf(
  SkillSummary,
  'A page of skill summaries (their latest versions, no SKILL.md), in list order',
);
export const SkillVersionList = pageOf(
  SkillVersionSummary,
  "A page of a skill's versions, newest first (semantic-version precedence)",
);
export const PageQuery = Type.Object({ limit: Limit, offset: Offset }, closed);
export const VisibilityBody = Type.Object({ visibility: VisibilitySchema }, closed);
export const SkillDeleted = Type.Object(
  { data: Type.Object({ id: Type.String(), deleted: Type.Boolean() }) },
  { description: 'The skill, every version and file, are gone' },
);

const SemVer = Type.String({ minLength: 5, maxLength: 64, description: 'a semantic version, e.g. 1.2.3' });
export const SkillVersionParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), version: SemVer },
  closed,
);
export const SkillFileParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), '*': Type.String({ maxLength: 1_000 }) },
  closed,
);
export const SkillVersionFileParams = Type.Object(
  { id: Type.String({ minLength: 1, maxLength: 64 }), version: SemVer, '*': Type.String({ maxLength: 1_000 }) },
  closed,
);

/** A skill in the export: every version, with its files' content (base64). */
export const SkillExport = Type.Object({
  id: Type.String(),
  name: Type.String(),
  visibility: VisibilitySchema,
  created_at: Timestamp,
  updated_at: Timestamp,
  latest_version: Type.Union([Type.String(), Type.Null()]),
  versions: Type.Array(
    Type.Object({
      ...Type.Omit(Skill, ['files']).properties,
      files: Type.Array(Type.Object({ ...SkillFile.properties, content_base64: Type.String() })),
    }),
  ),
});

export const DiscoveryIndex = Type.Object(
  {
    $schema: Type.String(),
    skills: Type.Array(
      Type.Object({
        name: Type.String(),
        type: Type.Enum(['skill-md', 'archive']),
        description: Type.String(),
        url: Type.String(),
        digest: Type.String({ description: 'sha256:<hex> of the artifact at url' }),
      }),
    ),
  },
  { description: 'The Agent Skills discovery index (v0.2.0)' },
);
