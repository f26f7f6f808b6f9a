/**
 * A rewrite of the AWS SDK clients' schema modules (`dist-es/schemas/schemas_N.js`) that lets esbuild drop
 * the schemas a bundle does not use. Each schema is a top-level array literal, and a schema with traits
 * holds an object keyed by a module constant: `{ [_hH]: "x-amz-acl" }`. esbuild cannot tell that a
 * computed key has no side effects (turning an object into a key may call its toString), so it keeps every
 * such schema, used or not, and all it refers to: about 65 KB of the S3 client's 138 KB in a function that
 * puts and gets objects. Written as the literal key it names (`{ "httpHeader": "x-amz-acl" }`) the object
 * is the same, and the unused schemas go.
 *
 * Only keys naming a constant declared in the file as a string literal are rewritten.
 */

const SDK_SCHEMA_MODULE =
  /[\\/]node_modules[\\/]@aws-sdk[\\/]client-[^\\/]+[\\/]dist-es[\\/]schemas[\\/]schemas_\d+\.js$/;

/** `const _hH = "httpHeader";` at the top level of the module. */
const STRING_CONSTANT = /^const (\w+) = ("(?:[^"\\\n]|\\.)*");$/gm;
/** `[_hH]:` as an object literal's key: after `{` or `,` (and any space). */
const COMPUTED_KEY = /([{,]\s*)\[(\w+)\]:/g;

export function literalSchemaKeys(text: string, file: string): string {
  if (!SDK_SCHEMA_MODULE.test(file)) return text;
  const strings = new Map<string, string>();
  for (const [, name, literal] of text.matchAll(STRING_CONSTANT))
    strings.set(name as string, literal as string);
  return text.replace(COMPUTED_KEY, (whole, before: string, name: string) => {
    const literal = strings.get(name);
    return literal === undefined ? whole : `${before}${literal}:`;
  });
}
