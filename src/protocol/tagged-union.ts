import * as t from 'io-ts';

/**
 * A union discriminated by a string tag, decoded by looking the tag up instead of trying every member.
 * `t.union` reports every member's failure; this reports only the failure of the member the tag names
 * (or that the tag itself is unknown), so an error message points at the one field that is wrong.
 */
export function taggedUnion<Tag extends string, Members extends Record<string, t.Mixed>>(
  tag: Tag,
  members: Members,
  name = `TaggedUnion<${tag}>`,
): t.Type<t.TypeOf<Members[keyof Members]>, t.OutputOf<Members[keyof Members]>, unknown> {
  type A = t.TypeOf<Members[keyof Members]>;
  type O = t.OutputOf<Members[keyof Members]>;
  const tags = Object.keys(members);
  const tagType = t.keyof(Object.fromEntries(tags.map((k) => [k, null])) as Record<string, null>);
  const memberOf = (u: unknown): t.Mixed | undefined => {
    if (typeof u !== 'object' || u === null) return undefined;
    const value = (u as Record<string, unknown>)[tag];
    return typeof value === 'string' && Object.prototype.hasOwnProperty.call(members, value) ? members[value] : undefined;
  };
  return new t.Type<A, O, unknown>(
    name,
    (u): u is A => memberOf(u)?.is(u) ?? false,
    (u, context) => {
      if (typeof u !== 'object' || u === null || Array.isArray(u)) return t.failure(u, context, `expected an object with "${tag}"`);
      const member = memberOf(u);
      if (member === undefined) {
        const value = (u as Record<string, unknown>)[tag];
        return t.failure(value, t.appendContext(context, tag, tagType, value), `expected one of ${tags.map((k) => JSON.stringify(k)).join(', ')}`);
      }
      return member.validate(u, context);
    },
    (a) => (memberOf(a) as t.Mixed).encode(a),
  );
}

/**
 * A union of single-key objects (`{ eliza: {...} } | { mcp_server: {...} }`, the seed's Rust enum encoding),
 * decoded by the key present (the first, when several are); `decode` drops the other keys, so `is` holds
 * only for an object with exactly one key, a member's (decodeOrThrow returns what `is` accepts as is).
 */
export function keyedUnion<Members extends Record<string, t.Mixed>>(
  members: Members,
  name = 'KeyedUnion',
): t.Type<{ [K in keyof Members]: { [P in K]: t.TypeOf<Members[K]> } }[keyof Members], unknown, unknown> {
  type A = { [K in keyof Members]: { [P in K]: t.TypeOf<Members[K]> } }[keyof Members];
  const keys = Object.keys(members);
  const keyOf = (u: unknown): string | undefined =>
    typeof u === 'object' && u !== null ? keys.find((k) => Object.prototype.hasOwnProperty.call(u, k)) : undefined;
  return new t.Type<A, unknown, unknown>(
    name,
    (u): u is A => {
      const key = keyOf(u);
      return key !== undefined && !Array.isArray(u) && Object.keys(u as object).length === 1 && members[key].is((u as Record<string, unknown>)[key]);
    },
    (u, context) => {
      const key = keyOf(u);
      if (key === undefined || Array.isArray(u)) return t.failure(u, context, `expected an object with one of the keys ${keys.join(', ')}`);
      const inner = (u as Record<string, unknown>)[key];
      const member = members[key];
      const result = member.validate(inner, t.appendContext(context, key, member, inner));
      return result._tag === 'Right' ? t.success({ [key]: result.right } as A) : result;
    },
    (a) => {
      const key = keyOf(a) as string;
      return { [key]: members[key].encode((a as Record<string, unknown>)[key]) };
    },
  );
}
