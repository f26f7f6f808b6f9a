/**
 * Lambda's event filtering, as much of it as the stack's filters use: a pattern is an object whose
 * leaves are arrays of values a record's field may have, each an exact value or `{ prefix }`; a record
 * matches when every field the pattern names matches. The embedded stack filters its stream's records
 * for a consumer as Lambda's event source mapping does in the cloud.
 */
type Leaf = readonly (string | number | boolean | { readonly prefix: string })[];
export interface EventPattern {
  readonly [field: string]: Leaf | EventPattern;
}

const matchesLeaf = (leaf: Leaf, value: unknown) =>
  leaf.some((allowed) =>
    typeof allowed === 'object'
      ? typeof value === 'string' && value.startsWith(allowed.prefix)
      : value === allowed,
  );

export function matchesPattern(pattern: EventPattern, record: unknown): boolean {
  if (typeof record !== 'object' || record === null) return false;
  return Object.entries(pattern).every(([field, expected]) => {
    const value = (record as Record<string, unknown>)[field];
    return Array.isArray(expected)
      ? matchesLeaf(expected, value)
      : matchesPattern(expected as EventPattern, value);
  });
}
