/**
 * dynalite parses every expression of every call with its PEG parsers, and they are slow: about 0.1 ms
 * for `#pk = :pk AND begins_with(#sk, :prefix)` and 0.35 ms for a delete's condition, paid again by each
 * Query, conditional write and update in a transaction.
 *
 * What a parse gives depends on the expression, the attribute names it resolves, and of the values only
 * their types, except in two checks that read values themselves (BETWEEN's bounds and attribute_type's
 * type name): an expression holding either is kept per exact values. So each parse is kept per parser,
 * expression, names and value types, and a later parse of the same is replayed: the tree with this
 * call's values where the first call's were, and the same names and values marked used (dynalite refuses
 * a call that leaves one unused). Errors and syntax errors are never kept: they are parsed every time.
 */

interface Context {
  attrNames?: Record<string, string>;
  attrVals?: Record<string, Record<string, unknown>>;
  unusedAttrNames?: Record<string, unknown>;
  unusedAttrVals?: Record<string, unknown>;
  isKeyCondition?: boolean;
}

interface ExpressionParser {
  parse(input: string, options: { context: Context }): unknown;
}

interface Kept {
  /** The tree, with the first call's value objects in it. */
  tree: unknown;
  /** Those value objects, by the name each was given under. */
  values: Map<object, string>;
  usedNames: string[];
  usedValues: string[];
}

/** Parses kept per parser: more distinct expressions than a program has, far fewer than memory allows. */
const KEPT_PER_PARSER = 2000;
const VALUE_READING = /between|attribute_type/i;

/** A value's type as dynalite's checks see it: the fields it sets. */
const typeOf = (value: Record<string, unknown>) =>
  Object.keys(value)
    .filter((type) => value[type] != null)
    .join('+');

function keyOf(input: string, context: Context): string {
  const values = context.attrVals ?? {};
  const valuePart = VALUE_READING.test(input)
    ? JSON.stringify(values)
    : JSON.stringify(Object.entries(values).map(([name, value]) => [name, typeOf(value)]));
  return [
    context.isKeyCondition ? 'key' : '',
    input,
    JSON.stringify(context.attrNames ?? {}),
    valuePart,
  ].join('\u0000');
}

/** A copy of `tree` in which every value object `values` names is `valueNamed(name)` (others copied). */
function replay(tree: unknown, values: Map<object, string>, valueNamed: (name: string) => unknown): unknown {
  if (typeof tree !== 'object' || tree === null) return tree;
  const name = values.get(tree);
  if (name !== undefined) return valueNamed(name);
  if (Array.isArray(tree)) return tree.map((node) => replay(node, values, valueNamed));
  const copy = Object.create(Object.getPrototypeOf(tree)) as Record<string, unknown>;
  for (const [field, node] of Object.entries(tree)) copy[field] = replay(node, values, valueNamed);
  return copy;
}

function markUsed(context: Context, names: string[], values: string[]): void {
  for (const name of names) delete context.unusedAttrNames?.[name];
  for (const name of values) delete context.unusedAttrVals?.[name];
}

const KEEPING = Symbol.for('content-repository.keepsParses');

/** Makes `parser` keep its parses (see above); once, however often it is asked. */
export function keepParses(parser: ExpressionParser & { [KEEPING]?: true }): void {
  if (parser[KEEPING]) return;
  parser[KEEPING] = true;
  const parse = parser.parse;
  const kept = new Map<string, Kept>();
  parser.parse = (input, options) => {
    const { context } = options;
    const key = keyOf(input, context);
    const hit = kept.get(key);
    if (hit) {
      // Most recently used last: the first entry is the one to let go.
      kept.delete(key);
      kept.set(key, hit);
      markUsed(context, hit.usedNames, hit.usedValues);
      return replay(hit.tree, hit.values, (name) => context.attrVals?.[name]);
    }
    // What this expression uses, whatever another expression of the call used before it.
    const names = context.attrNames ?? {};
    const values = context.attrVals ?? {};
    const fresh: Context = {
      ...context,
      unusedAttrNames: Object.fromEntries(Object.keys(names).map((name) => [name, true])),
      unusedAttrVals: Object.fromEntries(Object.keys(values).map((name) => [name, true])),
    };
    const tree = parse(input, { ...options, context: fresh });
    const usedNames = Object.keys(names).filter((name) => !(name in (fresh.unusedAttrNames ?? {})));
    const usedValues = Object.keys(values).filter((name) => !(name in (fresh.unusedAttrVals ?? {})));
    markUsed(context, usedNames, usedValues);
    const byObject = new Map(Object.entries(values).map(([name, value]) => [value as object, name]));
    // An error, or values that are one object under two names (not told apart in a tree): not kept.
    if (typeof tree === 'string' || byObject.size !== Object.keys(values).length) return tree;
    // The tree returned is the caller's to change: the one kept is a copy.
    kept.set(key, {
      tree: replay(tree, byObject, (name) => values[name]),
      values: byObject,
      usedNames,
      usedValues,
    });
    if (kept.size > KEPT_PER_PARSER) kept.delete(kept.keys().next().value as string);
    return tree;
  };
}
