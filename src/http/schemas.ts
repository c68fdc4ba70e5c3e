// TypeBox schemas: one source for request validation, handler types, response serialization and OpenAPI.
// The entities themselves (units, skills, profiles) are the domain's schemas (domain/model.ts); the files in
// schemas/ add what the API wraps around them: request bodies, query strings, envelopes and pages, one file
// per concern. This module re-exports them all and names the ones the OpenAPI document shows.
import type { TSchema } from 'typebox';
import {
  KeyMetadata,
  KnowledgeUnit,
  KnowledgeUnitSummary,
  ReputationEvent,
  ReputationProfile,
  Skill,
  SkillFile,
  SkillSummary,
  SkillVersionSummary,
  SkillWarning,
  Verdict,
} from '../domain/model.js';
import {
  ApiKeyCreated,
  ExportDocument,
  KeyList,
  RegisterBody,
  ReputationOne,
  RevokeBody,
  Revoked,
  WhoAmI,
} from './schemas/agents.js';
import { ErrorBody } from './schemas/common.js';
import { Health, Readiness } from './schemas/operations.js';
import {
  DiscoveryIndex,
  SkillBody,
  SkillCreated,
  SkillDeleted,
  SkillOne,
  SkillPage,
  SkillVersionList,
} from './schemas/skills.js';
import {
  UnitBody,
  UnitCreated,
  UnitDeleted,
  UnitOne,
  UnitPage,
  VerdictBody,
  VerdictRecorded,
} from './schemas/units.js';

export * from './schemas/advisories.js';
export * from './schemas/agents.js';
export * from './schemas/moderation.js';
// common.ts's building blocks (Timestamp, closed, Limit, Q, pageOf, ...) stay inside schemas/.
export { errors, IdParams } from './schemas/common.js';
export * from './schemas/operations.js';
export * from './schemas/skills.js';
export * from './schemas/units.js';

/**
 * The schemas the OpenAPI document names (components.schemas), so generated clients get a `Skill` type.
 * Route schemas stay plain TypeBox (no $id, so nothing changes for validation or serialization): the
 * document generator puts a $ref wherever a schema below appears whole (openapi.ts). Outer shapes first.
 */
export const NAMED_SCHEMAS: Readonly<Record<string, TSchema>> = {
  Error: ErrorBody,
  RegisterRequest: RegisterBody,
  ApiKeyCreated,
  RevokeRequest: RevokeBody,
  Revoked,
  KeyList,
  WhoAmI,
  SkillRequest: SkillBody,
  SkillCreated,
  SkillResponse: SkillOne,
  SkillPage,
  SkillVersionList,
  SkillDeleted,
  DiscoveryIndex,
  Skill,
  SkillSummary,
  SkillVersionSummary,
  SkillFile,
  SkillWarning,
  KnowledgeUnitInput: UnitBody,
  KnowledgeUnitCreated: UnitCreated,
  KnowledgeUnitResponse: UnitOne,
  KnowledgeUnitPage: UnitPage,
  KnowledgeUnit,
  KnowledgeUnitSummary,
  VerdictRequest: VerdictBody,
  VerdictRecorded,
  KnowledgeUnitDeleted: UnitDeleted,
  ReputationResponse: ReputationOne,
  ReputationProfile,
  ReputationEvent,
  Export: ExportDocument,
  Verdict,
  KeyMetadata,
  Health,
  Readiness,
};
