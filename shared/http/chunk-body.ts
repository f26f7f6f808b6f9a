/**
 * An upload chunk's bytes: the raw body (the spec's form, curl, resumable.js with method 'octet'), or the
 * `file` part of a multipart form (resumable.js's default), parsed by busboy.
 */
import { Busboy } from '@fastify/busboy';
import type { RawBody } from '#shared/api/operation.ts';
import { BadRequestError } from '#shared/domain/errors.ts';

/** resumable.js's default fileParameterName. */
export const CHUNK_FORM_FIELD = 'file';

const badForm = (message: string) =>
  new BadRequestError('MALFORMED_FORM', `The multipart body cannot be read: ${message}`, [
    { in: 'body', path: `$.${CHUNK_FORM_FIELD}`, rule: 'multipart_file', message },
  ]);

export async function chunkBytesOf(body: RawBody): Promise<Buffer> {
  // A form without its boundary is a malformed form (busboy says so), not a raw body to store as it is.
  if (!/^multipart\/form-data\s*(;|$)/i.test(body.contentType)) return body.bytes;
  return new Promise<Buffer>((resolve, reject) => {
    let form: InstanceType<typeof Busboy>;
    try {
      form = new Busboy({ headers: { 'content-type': body.contentType }, limits: { files: 1, fields: 50 } });
    } catch (error) {
      reject(badForm((error as Error).message));
      return;
    }
    let file: Buffer | undefined;
    form.on('file', (field, stream) => {
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('end', () => {
        if (field === CHUNK_FORM_FIELD) file = Buffer.concat(parts);
      });
    });
    form.on('error', (error: Error) => reject(badForm(error.message)));
    form.on('finish', () =>
      file ? resolve(file) : reject(badForm(`the form has no file part named "${CHUNK_FORM_FIELD}"`)),
    );
    form.end(body.bytes);
  });
}
