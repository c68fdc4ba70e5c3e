// Opaque, unguessable, URL-safe ids (128 random bits) and raw API keys, injectable for tests.
import { randomBytes } from 'node:crypto';
import { generateApiKey } from './keys.js';

export interface IdSource {
  skillId(): string;
  unitId(): string;
  apiKey(): string;
}

const random128 = () => randomBytes(16).toString('base64url');

export const randomIds: IdSource = {
  skillId: () => `sk_${random128()}`,
  unitId: () => `ku_${random128()}`,
  apiKey: () => generateApiKey(),
};
