/** Runs a schema over one part of the request; failures become a 400 naming each field and rule. */

import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { type FieldError, ValidationError } from '#shared/domain/errors.ts';

// zod/mini ships without messages; English ones say what was expected ("expected one of …").
z.config(en());

type Location = FieldError['in'];

export function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    const name = String(key);
    return /^[A-Za-z_$][\w$]*$/.test(name) ? `${acc}.${name}` : `${acc}[${JSON.stringify(name)}]`;
  }, '$');
}

function toFieldErrors(issue: z.core.$ZodIssue, location: Location): FieldError[] {
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

export function parseInput<S extends z.ZodMiniType>(
  schema: S,
  data: unknown,
  location: Location,
): z.output<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.flatMap((issue) => toFieldErrors(issue, location)));
}
