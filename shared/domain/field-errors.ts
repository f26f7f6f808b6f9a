/** Schema complaints as the problem's field errors: one conversion for the request parts and the services. */
import type * as z from 'zod/mini';
import type { FieldError } from './errors.ts';

type Location = FieldError['in'];

/** A field's place as the problem names it: `$.a.b[0]`, `$["odd key"]`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    const name = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(name) ? `${acc}.${name}` : `${acc}[${JSON.stringify(name)}]`;
  }, '$');
}

/** A schema's complaint as the fields a 400 names (`in`, path, rule, message). */
export function toFieldErrors(issue: z.core.$ZodIssue, location: Location): FieldError[] {
  if (issue.code === 'unrecognized_keys') {
    return issue.keys.map((key) => ({
      in: location,
      path: jsonPath([...issue.path, key]),
      rule: 'unrecognized_key',
      message:
        location === 'query' ? 'is not a parameter of this operation' : 'is not a field of this object',
    }));
  }
  const missing =
    issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value');
  const rule = issue.code === 'custom' ? String(issue.params?.rule ?? 'custom') : issue.code;
  return [
    {
      in: location,
      path: jsonPath(issue.path),
      rule: missing ? 'required' : rule,
      message: missing ? 'is required' : issue.message,
    },
  ];
}
