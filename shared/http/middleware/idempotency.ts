import { createHash } from 'node:crypto';
import type middy from '@middy/core';
import { currentInvocation } from '#shared/clients/invocation.ts';
import { findIdempotentRequest, saveAnswer } from '#shared/data/idempotency-repository.ts';
import { idempotencyKeyInUse } from '#shared/data/node-write-path.ts';
import { DomainError, headerError, ValidationError } from '#shared/domain/errors.ts';
import type { ParsedEvent } from '../operation.ts';
import { header } from '../request-headers.ts';
import type { HttpResult } from '../types.ts';

/** Answers bigger than this are not kept (an item holds 400 KB): their repeats are told so. */
const MAX_KEPT_ANSWER_BYTES = 300 * 1024;
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * A record still without an answer this long after its writes committed will not get one: its function
 * ended (at most 29 s) after committing but before the answer was kept.
 */
const ANSWER_DEADLINE_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * Idempotency-Key (the IETF HTTP draft) on the operations that write nodes: the first request with a key
 * is carried out, and its writes commit together with a record of the key (so they happen once); its
 * answer is kept for 24 hours, and a repeat of the same request with the same key gets that answer again
 * (with `Idempotent-Replayed: true`) without writing anything. The key reused for another request is a
 * 422; a repeat while the first is still being carried out is a 409.
 */
export function idempotency(enabled: boolean): middy.MiddlewareObj<ParsedEvent, HttpResult> {
  return {
    before: async ({ event }) => {
      const sent = enabled ? header(event, 'idempotency-key') : undefined;
      const invocation = currentInvocation();
      if (sent === undefined || !invocation || !event.caller) return;
      if (!KEY.test(sent)) {
        throw new ValidationError([
          headerError(
            'Idempotency-Key',
            'idempotency_key',
            'must be 1-255 visible ASCII characters (no spaces)',
          ),
        ]);
      }
      const principalId = event.caller.principal.principalId;
      const key = sha256(sent);
      const fingerprint = sha256(
        [event.requestContext.http.method, event.rawPath, event.rawQueryString, event.body ?? ''].join('\n'),
      );
      const earlier = await findIdempotentRequest(principalId, key);
      if (!earlier) {
        invocation.idempotency = { principalId, key, fingerprint, committed: false };
        return;
      }
      if (earlier.fingerprint !== fingerprint) {
        throw new DomainError(
          'mismatch',
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used for another request; use a new key',
        );
      }
      if (!earlier.answer) {
        if (Date.now() - Date.parse(earlier.committedAt) < ANSWER_DEADLINE_MS) throw idempotencyKeyInUse();
        throw new DomainError(
          'conflict',
          'IDEMPOTENCY_ANSWER_LOST',
          'The request with this Idempotency-Key was carried out, but its answer was lost; read the objects it wrote to see their state',
        );
      }
      event.replay = {
        ...earlier.answer,
        headers: { ...earlier.answer.headers, 'idempotent-replayed': 'true' },
      };
    },
    after: async ({ response }) => {
      const claim = currentInvocation()?.idempotency;
      if (!claim?.committed || !response) return;
      const body = typeof response.body === 'string' ? response.body : '';
      if (Buffer.byteLength(body) > MAX_KEPT_ANSWER_BYTES) return;
      await saveAnswer(claim, { statusCode: response.statusCode, headers: response.headers, body });
    },
  };
}
