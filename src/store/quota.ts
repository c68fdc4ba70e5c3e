// Storage quotas, checked the same way by both backends inside the write's transaction.
import { QuotaExceededError, type StorageQuota } from './store.js';

/** QuotaExceededError for the first bound that what an agent would hold passes (only bounds that grow). */
export function checkQuota(
  quota: StorageQuota,
  units: number,
  skills: number,
  bytes: number,
  growth: { units: number; skills: number; bytes: number },
): void {
  if (growth.units > 0 && quota.units !== null && units > quota.units)
    throw new QuotaExceededError('units', quota.units, units - growth.units);
  if (growth.skills > 0 && quota.skills !== null && skills > quota.skills)
    throw new QuotaExceededError('skills', quota.skills, skills - growth.skills);
  if (growth.bytes > 0 && quota.bytes !== null && bytes > quota.bytes)
    throw new QuotaExceededError('bytes', quota.bytes, bytes - growth.bytes);
}
