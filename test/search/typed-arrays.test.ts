import assert from 'node:assert/strict';
import { it } from 'node:test';
import { resized } from '../../src/search/typed-arrays.js';

it('resizes a typed array into a copy of the same type: longer with zeros after, shorter cut', () => {
  const source = Float32Array.from([1.5, -2, 3]);
  const longer = resized(source, 5);
  assert.ok(longer instanceof Float32Array);
  assert.deepEqual([...longer], [1.5, -2, 3, 0, 0]);
  assert.notEqual(longer.buffer, source.buffer);
  const shorter = resized(Int32Array.from([7, 8, 9]), 2);
  assert.ok(shorter instanceof Int32Array);
  assert.deepEqual([...shorter], [7, 8]);
});
