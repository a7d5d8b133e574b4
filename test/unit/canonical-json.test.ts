/** `sameJson` agrees with `canonicalJson` on which JSON values are the same. */
import { canonicalJson, sameJson } from '../../src/protocol/canonical-json.js';

describe('sameJson', () => {
  const schema = { type: 'object', properties: { path: { type: 'string', description: 'A file' }, depth: { type: 'number' } }, required: ['path'] };
  // Pairs, and whether canonicalJson takes them for the same: sameJson must agree on every one.
  const pairs: [unknown, unknown, boolean][] = [
    [schema, JSON.parse(JSON.stringify(schema)), true],
    [schema, { required: ['path'], properties: { depth: { type: 'number' }, path: { description: 'A file', type: 'string' } }, type: 'object' }, true],
    [{ a: 1, b: undefined }, { a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, true],
    [[1, 2], [2, 1], false],
    [[1, 2], [1, 2, 3], false],
    [{ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }, false],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [{ a: 1, b: 2 }, { a: 1, c: 2 }, false],
    [{ a: null }, { a: undefined }, false],
    [{ a: '1' }, { a: 1 }, false],
    [[], {}, false],
    [{}, [], false],
    [null, null, true],
    ['text', 'text', true],
    [0, -0, true],
  ];

  test.each(pairs)('%j and %j: %s, as their canonical JSON says', (a, b, same) => {
    expect(canonicalJson(a) === canonicalJson(b)).toBe(same);
    expect(sameJson(a, b)).toBe(same);
    expect(sameJson(b, a)).toBe(same);
  });
});
