/**
 * Uploads' records. A chunk's receipt is one UpdateItem adding its number to the upload's number set:
 * idempotent (a chunk sent twice is in the set once), never cancelled by a concurrent chunk (DynamoDB
 * applies updates to one item one after another, unlike transactions), and it tells exactly one request
 * that it completed the set.
 */
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDb } from '#shared/clients/dynamodb.ts';
import { config } from '#shared/config/index.ts';
import type { StoredFile, Upload } from '#shared/domain/uploads/upload.ts';
import {
  isExpired,
  oldestReceivingStart,
  receivingExpiresAtEpoch,
  UPLOAD_RETENTION,
} from '#shared/domain/uploads/upload.ts';
import { updatedIfHeld, writtenIfHeld } from './conditional-writes.ts';
import { uploads } from './entities/uploads.ts';
import { UPLOAD_PREFIX, uploadItemKey, userKey } from './keys.ts';
import { getItem } from './reads.ts';

const epochSeconds = (ms: number) => Math.floor(ms / 1000);
/**
 * isExpired, as a condition: past its expiry, or receiving past its start's maximum (a record written
 * before the maximum was kept can have a later expiry). Uses #state and liveValues.
 */
const LIVE = '(expiresAtEpoch > :nowSeconds AND NOT (#state = :receiving AND createdAt <= :oldestStart))';
const liveValues = (nowMs: number) => ({
  ':nowSeconds': epochSeconds(nowMs),
  ':receiving': 'receiving',
  ':oldestStart': oldestReceivingStart(nowMs),
});

/** The user's upload, or null (an expired one is gone, whether or not TTL has removed it yet). */
export async function findUpload(
  principalId: string,
  uploadKey: string,
  nowMs: number,
): Promise<Upload | null> {
  const item = await getItem(uploadItemKey(principalId, uploadKey));
  if (!item) return null;
  const upload = uploads.fromItem(item);
  return isExpired(upload, nowMs) ? null : upload;
}

/**
 * Records a new upload unless a live one holds its key (then false: two first chunks raced, or the key
 * was taken meanwhile). An expired record is overwritten, and so is a finished one (attached: its document
 * holds the file; failed: it has none), as resumable.js names two uploads of a file of the same name and
 * size alike.
 */
export function startUpload(principalId: string, upload: Upload, nowMs: number): Promise<boolean> {
  return writtenIfHeld(
    dynamoDb().send(
      new PutCommand({
        TableName: config().tableName,
        Item: uploads.toItem(upload, principalId),
        ConditionExpression: `attribute_not_exists(PK) OR NOT ${LIVE} OR #state IN (:attached, :failed)`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ...liveValues(nowMs),
          ':attached': 'attached',
          ':failed': 'failed',
        },
      }),
    ),
  );
}

/**
 * The user's uploads not yet attached, failed or expired. One query of the user's partition (attached ones are
 * read too until their record expires, a week after): counted when an upload starts, so two uploads
 * starting at the same moment may both pass the limit's last place.
 */
export async function countOpenUploads(principalId: string, nowMs: number): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await dynamoDb().send(
      new QueryCommand({
        TableName: config().tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :prefix)',
        FilterExpression: `NOT (#state IN (:attached, :failed)) AND ${LIVE}`,
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':pk': userKey(principalId).PK,
          ':prefix': UPLOAD_PREFIX,
          ':attached': 'attached',
          ':failed': 'failed',
          ...liveValues(nowMs),
        },
        Select: 'COUNT',
        ...(startKey ? { ExclusiveStartKey: startKey } : {}),
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/**
 * Adds a stored chunk to the receipt of `upload` (as read: the upload that started at its createdAt, not
 * one started under its key since), if it is still receiving, and moves its expiry to a day after this
 * chunk, within its start's maximum. Answers the receipt as it was before (the caller completed the upload
 * if its chunk was the last one missing), or null when that upload is no longer receiving (or expired).
 */
export async function recordChunk(
  principalId: string,
  uploadKey: string,
  upload: Pick<Upload, 'createdAt'>,
  chunkNumber: number,
  nowMs: number,
): Promise<Upload | null> {
  const expires = receivingExpiresAtEpoch(upload.createdAt, nowMs);
  // It reached its maximum while the chunk was stored.
  if (expires <= epochSeconds(nowMs)) return null;
  return updatedOrNull(
    new UpdateCommand({
      TableName: config().tableName,
      Key: uploadItemKey(principalId, uploadKey),
      UpdateExpression: 'ADD chunks :chunk SET updatedAt = :at, expiresAtEpoch = :expires',
      ConditionExpression: `#state = :receiving AND ${LIVE} AND createdAt = :createdAt`,
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':chunk': new Set([chunkNumber]),
        ':at': new Date(nowMs).toISOString(),
        ':expires': expires,
        ':createdAt': upload.createdAt,
        ...liveValues(nowMs),
      },
      ReturnValues: 'ALL_OLD',
    }),
  );
}

/**
 * Takes the upload for an assembly until `leaseUntilMs`: when every chunk is in, or when an earlier
 * assembly's lease ran out (it crashed, or gave the upload back to be retried). Null when it cannot be taken.
 */
export async function takeForAssembly(
  principalId: string,
  uploadKey: string,
  nowMs: number,
  leaseUntilMs: number,
): Promise<Upload | null> {
  return updatedOrNull(
    new UpdateCommand({
      TableName: config().tableName,
      Key: uploadItemKey(principalId, uploadKey),
      // It lives a day past its lease (as a receiving upload a day past its last chunk), so an assembly near
      // the upload's 2-day maximum can end, or be taken again, before the record expires.
      UpdateExpression:
        'SET #state = :assembling, assemblyLeaseUntil = :lease, updatedAt = :at, expiresAtEpoch = :expires',
      ConditionExpression:
        `${LIVE} AND ((#state = :receiving AND size(chunks) = totalChunks) OR ` +
        '(#state = :assembling AND assemblyLeaseUntil < :nowMs))',
      ExpressionAttributeNames: { '#state': 'state' },
      ExpressionAttributeValues: {
        ':assembling': 'assembling',
        ':lease': leaseUntilMs,
        ':expires': epochSeconds(leaseUntilMs) + UPLOAD_RETENTION.receivingSeconds,
        ':nowMs': nowMs,
        ':at': new Date(nowMs).toISOString(),
        ...liveValues(nowMs),
      },
      ReturnValues: 'ALL_NEW',
    }),
  );
}

/** The upload an update returned (as it was or became), or null when its condition did not hold. */
const updatedOrNull = (update: UpdateCommand): Promise<Upload | null> =>
  updatedIfHeld(dynamoDb().send(update), (item) => uploads.fromItem(item));

/** Ends an assembly: complete with its file, failed with why, or given back (lease released) to be retried. */
export function endAssembly(
  principalId: string,
  uploadKey: string,
  nowMs: number,
  outcome: { file: StoredFile } | { failure: string } | { retry: true },
): Promise<boolean> {
  const common = { ':assembling': 'assembling', ':at': new Date(nowMs).toISOString() };
  const [update, values]: [string, Record<string, unknown>] =
    'file' in outcome
      ? [
          'SET #state = :complete, #file = :file, updatedAt = :at, expiresAtEpoch = :expires REMOVE assemblyLeaseUntil',
          {
            ':complete': 'complete',
            ':file': outcome.file,
            ':expires': epochSeconds(nowMs) + UPLOAD_RETENTION.completeSeconds,
          },
        ]
      : 'failure' in outcome
        ? [
            'SET #state = :failed, #failure = :failure, updatedAt = :at, expiresAtEpoch = :expires REMOVE assemblyLeaseUntil',
            {
              ':failed': 'failed',
              ':failure': outcome.failure,
              ':expires': epochSeconds(nowMs) + UPLOAD_RETENTION.failedSeconds,
            },
          ]
        : ['SET assemblyLeaseUntil = :released, updatedAt = :at', { ':released': 0 }];
  return writtenIfHeld(
    dynamoDb().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: uploadItemKey(principalId, uploadKey),
        UpdateExpression: update,
        ConditionExpression: '#state = :assembling',
        // `file` is a reserved word of DynamoDB expressions.
        ExpressionAttributeNames: {
          '#state': 'state',
          ...('file' in outcome ? { '#file': 'file' } : {}),
          ...('failure' in outcome ? { '#failure': 'failure' } : {}),
        },
        ExpressionAttributeValues: { ...common, ...values },
      }),
    ),
  );
}
