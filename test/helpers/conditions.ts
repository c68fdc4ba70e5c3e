// Random list conditions (src/domain/filters.ts) over given values of each attribute: leaves of every
// operator an attribute takes, joined by `and` and `or` a few levels deep.
import fc from 'fast-check';
import type { Condition } from '../../src/domain/filters.js';

export interface ConditionValues {
  domain?: readonly string[];
  visibility?: readonly string[];
  publisher?: readonly string[];
  type?: readonly string[];
  name?: readonly string[];
  tags?: readonly string[];
  quality?: readonly number[];
  /** Whether `listed` and `conformant` are filtered on (skills); `held` always is. */
  flags?: boolean;
}

export function conditions(values: ConditionValues): fc.Arbitrary<Condition> {
  const leaves: fc.Arbitrary<Condition>[] = [];
  for (const attr of ['domain', 'visibility', 'publisher', 'type', 'name'] as const) {
    const texts = values[attr];
    if (!texts || texts.length === 0) continue;
    leaves.push(fc.constantFrom(...texts).map((equals) => ({ attr, equals })));
    leaves.push(fc.uniqueArray(fc.constantFrom(...texts), { maxLength: 3 }).map((anyOf) => ({ attr, anyOf })));
  }
  if (values.tags?.length)
    leaves.push(
      fc
        .uniqueArray(fc.constantFrom(...values.tags), { maxLength: 3 })
        .map((allOf) => ({ attr: 'tags' as const, allOf })),
    );
  if (values.quality?.length)
    leaves.push(fc.constantFrom(...values.quality).map((atLeast) => ({ attr: 'quality' as const, atLeast })));
  if (values.flags !== false)
    for (const attr of ['listed', 'conformant'] as const) leaves.push(fc.boolean().map((equals) => ({ attr, equals })));
  leaves.push(fc.boolean().map((equals) => ({ attr: 'held' as const, equals })));
  const leaf = fc.oneof(...leaves);
  return fc.letrec<{ node: Condition }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.array(tie('node'), { maxLength: 3 }).map((and) => ({ and })),
      fc.array(tie('node'), { maxLength: 3 }).map((or) => ({ or })),
    ),
  })).node;
}
