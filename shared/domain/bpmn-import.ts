/** What a BPMN import answers, and how large a file it takes. */
import * as z from 'zod/mini';
import { baseElementSchema } from './node.ts';
import { edgeSchema } from './process-diagram.ts';
import { named, nullableString } from './schema-parts.ts';

export const BPMN_LIMITS = {
  /**
   * A BPMN file passes through the function's payload (6 MB, and API Gateway may base64-encode it, a
   * third more): 3 MiB keeps it well inside.
   */
  fileBytes: 3 * 1024 * 1024,
  /**
   * How deep a file's elements may nest (the root being 1): the reference models nest 11 deep at most, and
   * the import and export walk the model recursively.
   */
  nestingDepth: 100,
  /**
   * An export is the body of the function's answer, which Lambda takes up to 6 MB of, counted as JSON (a
   * quote or line break escaped); some room is left for the rest of the answer.
   */
  exportBytes: 6 * 1024 * 1024 - 64 * 1024,
  /**
   * A file is taken when its export, as imported and without indentation, is at most this: the rest of
   * exportBytes is room for the tasks, edges and names added since. Escaping can make an export of a
   * 3 MiB file larger than 6 MB (a `>` in text is written `&gt;`), and so can indenting deep nesting.
   */
  importedExportBytes: 4 * 1024 * 1024,
} as const;

/** An element of the file that was not imported as a task or an edge: kept with the process, or not. */
export const reportedElementSchema = z.strictObject({
  type: z.string(),
  id: nullableString,
  name: nullableString,
  kept: z.boolean(),
  reason: z.string(),
});

export const bpmnImportSchema = named(
  z.strictObject({
    process: baseElementSchema,
    tasks: z.array(baseElementSchema),
    edges: z.array(edgeSchema),
    report: z.array(reportedElementSchema),
  }),
  'BpmnImport',
);
export type BpmnImport = z.output<typeof bpmnImportSchema>;
