import type middy from '@middy/core';
import { config } from '#shared/config/index.ts';
import { ForbiddenError, UnauthenticatedError } from '#shared/domain/errors.ts';
import { authenticate, type VerifiedPrincipal } from '#shared/services/authentication.ts';
import { isCrossSiteCookieRequest } from '../cross-site.ts';
import type { ParsedEvent } from '../operation.ts';
import { accessToken, bearerToken } from '../request-headers.ts';
import type { HttpResult } from '../types.ts';

/**
 * Every route but login takes a token (cookie or Bearer) whose session is alive. `prefetch`, if given,
 * starts the handler's first read once the token is verified, beside the session read.
 */
export function authenticateRequest(
  required: boolean,
  prefetch?: (event: ParsedEvent, verified: VerifiedPrincipal) => void,
): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    before: async ({ event }) => {
      if (!required) return;
      const token = accessToken(event);
      if (token && !bearerToken(event) && isCrossSiteCookieRequest(event, config().corsOrigins)) {
        throw new ForbiddenError(
          'A cookie-authenticated change must come from this site or an allowed origin; send Authorization: Bearer instead',
        );
      }
      if (!token) {
        throw new UnauthenticatedError(
          'UNAUTHENTICATED',
          'This operation needs an access token: log in and send the access_token cookie or Authorization: Bearer',
        );
      }
      event.caller = await authenticate(
        token,
        undefined,
        prefetch && ((verified) => prefetch(event, verified)),
      );
    },
  };
}
