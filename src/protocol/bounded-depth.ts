import * as t from 'io-ts';

/** How deeply free-form JSON (tool parameters, schemas) may nest: far beyond real use, far below the stack. */
export const MAX_JSON_DEPTH = 64;

/**
 * `codec`, refusing values nested deeper than `maxDepth`. Everything downstream of decoding (hashing,
 * token estimates, re-encoding) may recurse through free-form JSON; checked here, iteratively, a
 * malicious nest becomes an InvalidParams error naming the field instead of a stack overflow.
 */
export function boundedDepth<C extends t.Mixed>(codec: C, maxDepth = MAX_JSON_DEPTH): t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown> {
  return new t.Type<t.TypeOf<C>, t.OutputOf<C>, unknown>(
    codec.name,
    (u): u is t.TypeOf<C> => codec.is(u) && !nestedDeeperThan(u, maxDepth),
    (u, context) => (nestedDeeperThan(u, maxDepth) ? t.failure(u, context, `nested deeper than ${maxDepth} levels`) : codec.validate(u, context)),
    (a) => codec.encode(a),
  );
}

/** Whether `value` has objects or arrays nested deeper than `maxDepth` levels (checked iteratively). */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= maxDepth) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) stack.push([child, depth + 1]);
  }
  return false;
}

/** A copy of `value` whose objects and arrays below `maxDepth` levels are replaced by a note: for display only. */
export function clipDepth(value: unknown, maxDepth = MAX_JSON_DEPTH): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (maxDepth <= 0) return '(nested too deep to show)';
  if (Array.isArray(value)) return value.map((item) => clipDepth(item, maxDepth - 1));
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, clipDepth(item, maxDepth - 1)]));
}
