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
