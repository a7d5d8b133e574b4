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

/**
 * Whether `value` (a JSON value) has objects or arrays nested deeper than `maxDepth` levels, checked
 * iteratively. Only objects and arrays are stacked, their depths beside them: every request's tool schemas
 * pass through here (Copilot's 40 tools: 91 µs when every value went on the stack in a pair, ~20 µs so).
 */
export function nestedDeeperThan(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const nested: object[] = [value];
  const depths: number[] = [0];
  const push = (child: object, depth: number) => {
    nested.push(child);
    depths.push(depth);
  };
  while (nested.length > 0) {
    const current = nested.pop()!;
    const depth = depths.pop()!;
    if (depth >= maxDepth) return true;
    if (Array.isArray(current)) {
      for (const child of current as unknown[]) if (typeof child === 'object' && child !== null) push(child, depth + 1);
      continue;
    }
    // for…in rather than Object.values, which copies each object's values into an array (JSON has no inherited keys).
    for (const key in current) {
      const child = (current as Record<string, unknown>)[key];
      if (typeof child === 'object' && child !== null) push(child, depth + 1);
    }
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
