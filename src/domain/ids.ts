// Opaque, unguessable, URL-safe ids (128 random bits) and raw API keys, injectable for tests.
import { randomBytes } from 'node:crypto';
import { generateApiKey } from './keys.js';

export interface IdSource {
  skillId(): string;
  unitId(): string;
  apiKey(): string;
  /** Reports and appeals, moderation decisions, advisories (an OSV id: KREG-…). */
  reportId(): string;
  decisionId(): string;
  advisoryId(): string;
}

const random128 = () => randomBytes(16).toString('base64url');

export const randomIds: IdSource = {
  skillId: () => `sk_${random128()}`,
  unitId: () => `ku_${random128()}`,
  apiKey: () => generateApiKey(),
  reportId: () => `rp_${random128()}`,
  decisionId: () => `dc_${random128()}`,
  // OSV ids are <database>-<entry>; the entry is random, so ids reveal nothing of what is advised or when.
  advisoryId: () => `KREG-${randomBytes(10).toString('hex')}`,
};
