/**
 * The installation's own items: its settings, and the mark of its first start.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import * as z from 'zod/mini';
import { settingsStoredSchema } from '#shared/domain/settings.ts';
import { defineEntity } from '../entity.ts';
import { bootstrapKey, settingsKey } from '../keys.ts';

export const settings = defineEntity({
  name: 'Settings',
  schema: settingsStoredSchema,
  keys: () => settingsKey(),
});

/** Marks that the first administrator and the Default environment were created. */
export const installation = defineEntity({
  name: 'Installation',
  schema: z.object({
    adminPrincipalId: z.string(),
    defaultEnvironmentId: z.string(),
    bootstrappedAt: z.string(),
  }),
  keys: () => bootstrapKey(),
});
