/** Runs a schema over one part of the request; failures become a 400 naming each field and rule. */

import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { type FieldError, ValidationError } from '#shared/domain/errors.ts';
import { toFieldErrors } from '#shared/domain/field-errors.ts';

// zod/mini ships without messages; English ones say what was expected ("expected one of …").
z.config(en());

type Location = FieldError['in'];

// Where request parts name their fields; kept here for the middleware that imports it with parseInput.
export { jsonPath } from '#shared/domain/field-errors.ts';

export function parseInput<S extends z.ZodMiniType>(
  schema: S,
  data: unknown,
  location: Location,
): z.output<S> {
  const result = schema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  throw new ValidationError(result.error.issues.flatMap((issue) => toFieldErrors(issue, location)));
}
