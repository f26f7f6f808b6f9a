import { ForbiddenError } from '#shared/domain/errors.ts';
import type { Caller } from '#shared/domain/user.ts';

/** Administration routes are for system administrators only. */
export function requireSystemAdmin(caller: Caller): void {
  if (!caller.systemAdmin) throw new ForbiddenError('Only system administrators may do this');
}
