/** A deleted subtree in the trash, as the trash list shows it. */
import * as z from 'zod/mini';
import { listPageOf } from './list-element.ts';
import { named } from './schema-parts.ts';

export const trashElementSchema = named(
  z.strictObject({
    '@type': z.literal('TrashElement'),
    nodeId: z.string(),
    nodeType: z.string(),
    name: z.string(),
    parentId: z.nullable(z.string()),
    deletedAt: z.string(),
    deletedByName: z.nullable(z.string()),
    /** Objects deleted with it, itself included. */
    nodes: z.number(),
    /** Until when it can be restored. */
    expiresAt: z.string(),
  }),
  'TrashElement',
);
export const trashPageSchema = named(listPageOf(trashElementSchema), 'TrashPage');
