import * as z from 'zod/mini';

/**
 * Gives a schema its name in the API reference (a JSON Schema `title`, kept in zod's registry of
 * metadata): the reference lists it as a named component and refers to it wherever it is a request or
 * response body. The schema itself is unchanged, so it can still be extended or picked from.
 */
export function named<S extends z.ZodMiniType>(schema: S, title: string): S {
  z.globalRegistry.add(schema, { title });
  return schema;
}
