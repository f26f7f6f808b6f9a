/**
 * An assembled file's tag: unattached files expire (the bucket's lifecycle rule), attached ones stay until
 * their document is purged from the trash.
 */
import { DeleteObjectCommand, PutObjectTaggingCommand } from '@aws-sdk/client-s3';
import { s3 } from '#shared/clients/s3.ts';
import { config } from '#shared/config/index.ts';
import { unlessUnavailable } from './s3-faults.ts';
import { fileKey, UNATTACHED_TAG } from './storage-layout.ts';

export function tagFile(fileId: string, value: string) {
  return unlessUnavailable(
    s3().send(
      new PutObjectTaggingCommand({
        Bucket: config().bucketName,
        Key: fileKey(fileId),
        Tagging: { TagSet: [{ Key: UNATTACHED_TAG.Key, Value: value }] },
      }),
    ),
  );
}

/** The file is held by a document: the bucket's expiry of unattached files no longer applies to it. */
export async function markFileAttached(fileId: string): Promise<void> {
  await tagFile(fileId, 'attached');
}

/** Removes a file for good (its documents were purged). */
export async function deleteFile(fileId: string): Promise<void> {
  await unlessUnavailable(
    s3().send(new DeleteObjectCommand({ Bucket: config().bucketName, Key: fileKey(fileId) })),
  );
}
