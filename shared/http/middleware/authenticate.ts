import type middy from '@middy/core';
import { UnauthenticatedError } from '#shared/domain/errors.ts';
import { authenticate } from '#shared/services/auth-service.ts';
import type { ParsedEvent } from '../operation.ts';
import { accessToken } from '../request-headers.ts';
import type { HttpResult } from '../types.ts';

/** Every route but login takes a token (cookie or Bearer) whose session is alive. */
export function authenticateRequest(required: boolean): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    before: async ({ event }) => {
      if (!required) return;
      const token = accessToken(event);
      if (!token) {
        throw new UnauthenticatedError(
          'UNAUTHENTICATED',
          'This operation needs an access token: log in and send the access_token cookie or Authorization: Bearer',
        );
      }
      event.caller = await authenticate(token);
    },
  };
}
