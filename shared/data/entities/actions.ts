/**
 * Actions as stored.
 * How items of the single table are described: ../entity.ts; which key serves which query: ../table-schema.ts.
 */
import { storedActionSchema } from '#shared/domain/action.ts';
import { defineEntity } from '../entity.ts';
import { actionKey, userActionsIndexKeys } from '../keys.ts';

export const actions = defineEntity({
  name: 'Action',
  schema: storedActionSchema,
  keys: (action) => ({
    ...actionKey(action.actionId),
    ...userActionsIndexKeys(action.user.principalId, action.dueDate, action.actionId),
  }),
});
