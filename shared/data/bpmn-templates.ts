/**
 * The BPMN file a process was imported from, kept in the bucket (a file can be megabytes; an item holds
 * 400 KB). Each import writes a new object and the process names it, so a failed import leaves the
 * process on its earlier file; the import removes the object it wrote when its commit fails.
 */
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, PutObjectCommand } from '@aws-sdk/client-s3';
import { s3 } from '#shared/clients/s3.ts';
import { config } from '#shared/config/index.ts';
import { newId } from '#shared/domain/node.ts';
import { unlessUnavailable } from './s3-faults.ts';
import { bpmnTemplateKey } from './storage-layout.ts';

/** Keeps `xml` for the process and answers its key. */
export async function saveBpmnTemplate(processId: string, xml: string): Promise<string> {
  const key = bpmnTemplateKey(processId, newId());
  await unlessUnavailable(
    s3().send(
      new PutObjectCommand({
        Bucket: config().bucketName,
        Key: key,
        Body: xml,
        ContentType: 'application/xml; charset=utf-8',
      }),
    ),
  );
  return key;
}

/** The kept file, or null when it is gone. */
export async function readBpmnTemplate(key: string): Promise<string | null> {
  try {
    const read = s3().send(new GetObjectCommand({ Bucket: config().bucketName, Key: key }));
    const { Body } = await unlessUnavailable(read);
    return Body ? await Body.transformToString('utf-8') : null;
  } catch (error) {
    if (error instanceof NoSuchKey) return null;
    throw error;
  }
}

/** Removes the file of a process purged for good. */
export async function deleteBpmnTemplate(key: string): Promise<void> {
  await unlessUnavailable(s3().send(new DeleteObjectCommand({ Bucket: config().bucketName, Key: key })));
}

/** Removes a file no process names (its import failed). Best effort: a leftover costs storage, not data. */
export async function discardBpmnTemplate(key: string): Promise<void> {
  await deleteBpmnTemplate(key).catch(() => undefined);
}
