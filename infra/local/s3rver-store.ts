/**
 * s3rver's filesystem store, answering as S3 does where s3rver does not:
 * - A PutObject or UploadPart is answered once its file is written out and closed. s3rver answers once the
 *   body is hashed, while the file may still be flushing, so a read right after could see part of the
 *   object; S3 reads after writes consistently.
 * - A range ending at byte 0 (`bytes=0-0`, the first byte) is that byte; s3rver reads an end of 0 as no
 *   end and answered the whole object under a Content-Range of one byte.
 * - CompleteMultipartUpload checks the parts as S3 does: each listed part exists with the ETag given
 *   (InvalidPart), in ascending order (InvalidPartOrder), and every part but the last holds at least
 *   5 MiB (EntityTooSmall); s3rver accepts anything. The object's ETag is S3's multipart form (the MD5 of
 *   the parts' MD5s, a dash and their count), and the parts are joined without hashing them again.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

const require = createRequire(import.meta.url);

interface StoredObject {
  bucket: string;
  key: string;
  metadata: Record<string, string>;
  content: Buffer | Readable;
}
interface Written {
  size: number;
  md5: string;
}
/** What s3rver's store answers for a read: the content (none when the range is not satisfiable). */
interface ReadObject {
  content: Readable | null;
  range?: { start: number; end: number };
}
interface FilesystemStoreClass {
  new (
    rootDirectory: string,
  ): {
    getResourcePath(bucket: string, key: string | undefined, resource: string): string;
    getObject(
      bucket: string,
      key: string,
      range?: { start?: number; end?: number },
    ): Promise<ReadObject | null>;
    putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5?: string): Promise<void>;
  };
}
type S3ErrorClass = new (code: string, message: string, detail?: Record<string, string>) => Error;

const FilesystemStore = require('s3rver/lib/stores/filesystem') as FilesystemStoreClass;
const S3Error = require('s3rver/lib/models/error') as S3ErrorClass;

/** S3's smallest part, for every part of a multipart upload but the last. */
export const MIN_PART_BYTES = 5 * 1024 * 1024;

/** Writes a body to `file`; answers its size and MD5 once the file is closed. */
async function writeBody(file: string, content: Buffer | Readable): Promise<Written> {
  await mkdir(dirname(file), { recursive: true });
  const md5 = createHash('md5');
  if (Buffer.isBuffer(content)) {
    await writeFile(file, content);
    return { size: content.length, md5: md5.update(content).digest('hex') };
  }
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      md5.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(content, measure, createWriteStream(file));
  return { size, md5: md5.digest('hex') };
}

const readText = (file: string) =>
  readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });

export class S3FaithfulStore extends FilesystemStore {
  override async getObject(bucket: string, key: string, range?: { start?: number; end?: number }) {
    const object = await super.getObject(bucket, key, range);
    if (range?.end !== 0 || (range.start ?? 0) !== 0 || !object?.content) return object;
    object.content.destroy();
    object.content = await new Promise<Readable>((resolve, reject) => {
      const first = createReadStream(this.getResourcePath(bucket, key, 'object'), { start: 0, end: 0 });
      first.on('error', reject).on('open', () => resolve(first));
    });
    object.range = { start: 0, end: 0 };
    return object;
  }

  async putObject(object: StoredObject): Promise<Written> {
    const written = await writeBody(
      this.getResourcePath(object.bucket, object.key, 'object'),
      object.content,
    );
    await this.putMetadata(object.bucket, object.key, object.metadata, written.md5);
    return written;
  }

  async putPart(bucket: string, uploadId: string, partNumber: number, content: Readable): Promise<Written> {
    const partPath = join(this.uploadDirectory(bucket, uploadId), String(partNumber));
    const written = await writeBody(partPath, content);
    await writeFile(`${partPath}.md5`, written.md5);
    return written;
  }

  async putObjectMultipart(
    bucket: string,
    uploadId: string,
    parts: { number: number; etag: string }[],
  ): Promise<Written> {
    const directory = this.uploadDirectory(bucket, uploadId);
    const key = await readText(join(directory, 'key'));
    if (key === undefined) {
      throw new S3Error(
        'NoSuchUpload',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      );
    }
    const metadata = JSON.parse((await readText(join(directory, 'metadata'))) ?? '{}');
    const files = await this.checkedParts(directory, parts);
    const objectPath = this.getResourcePath(bucket, key, 'object');
    await mkdir(dirname(objectPath), { recursive: true });
    async function* joined() {
      for (const { path } of files) yield* createReadStream(path);
    }
    await pipeline(Readable.from(joined()), createWriteStream(objectPath));
    const etag = `${createHash('md5')
      .update(Buffer.concat(files.map(({ md5 }) => Buffer.from(md5, 'hex'))))
      .digest('hex')}-${files.length}`;
    await this.putMetadata(bucket, key, metadata, etag);
    await rm(directory, { recursive: true, force: true });
    return { size: files.reduce((sum, { size }) => sum + size, 0), md5: etag };
  }

  private uploadDirectory(bucket: string, uploadId: string): string {
    return join(this.getResourcePath(bucket, undefined, 'uploads'), uploadId);
  }

  /** The listed parts' files, sizes and MD5s, refused as S3 refuses them. */
  private async checkedParts(directory: string, parts: { number: number; etag: string }[]) {
    const files: { path: string; size: number; md5: string }[] = [];
    for (const [i, part] of parts.entries()) {
      if (i > 0 && part.number <= (parts[i - 1] as { number: number }).number) {
        throw new S3Error('InvalidPartOrder', 'The list of parts was not in ascending order.');
      }
      const path = join(directory, String(part.number));
      const md5 = await readText(`${path}.md5`);
      if (md5 === undefined || md5 !== part.etag) {
        throw new S3Error(
          'InvalidPart',
          "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
          { PartNumber: String(part.number), ETag: part.etag },
        );
      }
      files.push({ path, size: (await stat(path)).size, md5 });
    }
    const small = files.slice(0, -1).findIndex(({ size }) => size < MIN_PART_BYTES);
    if (small >= 0) {
      throw new S3Error(
        'EntityTooSmall',
        'Your proposed upload is smaller than the minimum allowed object size.',
        { PartNumber: String(parts[small]?.number), MinSizeAllowed: String(MIN_PART_BYTES) },
      );
    }
    return files;
  }
}
