// What a list admits, as one condition (filters.ts): the visibility rule (access.ts) beside the filters its
// parameters ask, and for skills a listed version. The store's lists and the
// search index both take this condition, so no door writes its own.
import { visibleCondition, type Viewer } from './access.js';
import { allOf, filterConditions, SKILL_FILTERS, UNIT_FILTERS, type Condition } from './filters.js';

/** A skill is listed while it has a version to serve by default (not every one yanked). */
const LISTED: Condition = { attr: 'listed', equals: true };

export function skillListCondition(viewer: Viewer, params: Readonly<Record<string, unknown>>): Condition {
  return allOf([LISTED, visibleCondition(viewer), ...filterConditions(SKILL_FILTERS, params)]);
}

export function unitListCondition(viewer: Viewer, params: Readonly<Record<string, unknown>>): Condition {
  return allOf([visibleCondition(viewer, 'unit'), ...filterConditions(UNIT_FILTERS, params)]);
}
