/** Records of requests sent with an Idempotency-Key (see entities/idempotency.ts). */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import type { IdempotencyClaim } from '#shared/clients/invocation.ts';
import { config } from '#shared/config/index.ts';
import { idempotentRequests } from './entities/idempotency.ts';
import { idempotencyKey } from './keys.ts';
import { getItem } from './reads.ts';

/** How long a key is remembered. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

export type IdempotentRequest = ReturnType<typeof idempotentRequests.fromItem>;
export type StoredAnswer = NonNullable<IdempotentRequest['answer']>;

export async function findIdempotentRequest(
  principalId: string,
  key: string,
): Promise<IdempotentRequest | null> {
  const item = await getItem(idempotencyKey(principalId, key));
  return item ? idempotentRequests.fromItem(item) : null;
}

/** The transaction item that claims the key, to commit with the writes that complete the request. */
export function claimItem(claim: IdempotencyClaim, TableName: string) {
  const now = new Date();
  return {
    Put: {
      TableName,
      Item: idempotentRequests.toItem(
        {
          fingerprint: claim.fingerprint,
          committedAt: now.toISOString(),
          expiresAtEpoch: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS,
        },
        claim.principalId,
        claim.key,
      ),
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  };
}

/** Keeps the answer of a claimed request, for its repeats. */
export async function saveAnswer(claim: IdempotencyClaim, answer: StoredAnswer): Promise<void> {
  await dynamoDb().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: idempotencyKey(claim.principalId, claim.key),
      UpdateExpression: 'SET answer = :answer',
      ExpressionAttributeValues: { ':answer': answer },
    }),
  );
}
