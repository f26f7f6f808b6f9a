/**
 * An upload chunk's body: the raw bytes (the spec's form, curl, resumable.js and flow.js with method 'octet'),
 * or a multipart form (their default), parsed by busboy, whose `file` part is the chunk and whose other
 * fields are the chunk's parameters (flow.js sends them only there).
 */
import { Busboy } from '@fastify/busboy';
import type { RawBody } from '#shared/api/operation.ts';
import { BadRequestError } from '#shared/domain/errors.ts';

/** resumable.js's and flow.js's default fileParameterName. */
export const CHUNK_FORM_FIELD = 'file';

/** Far more than the nine parameters a chunk comes with; a form with more is not an upload's. */
const MAX_FORM_FIELDS = 50;
/** Other file parts are read past (a page's form may hold them); a form with more is not an upload's. */
const MAX_FILE_PARTS = 5;

export interface ChunkBody {
  bytes: Buffer;
  /** The content type the form gave the file part, or a raw body's Content-Type. */
  partType: string | null;
  /** The form's other fields, in order, repeats kept; none for a raw body. */
  fields: [name: string, value: string][];
}

const badForm = (message: string) =>
  new BadRequestError('MALFORMED_FORM', `The multipart body cannot be read: ${message}`, [
    { in: 'body', path: `$.${CHUNK_FORM_FIELD}`, rule: 'multipart_file', message },
  ]);

export const isMultipartForm = (contentType: string) => /^multipart\/form-data\s*(;|$)/i.test(contentType);

export async function readChunkBody(body: RawBody): Promise<ChunkBody> {
  // A form without its boundary is a malformed form (busboy says so), not a raw body to store as it is.
  if (!isMultipartForm(body.contentType)) {
    return { bytes: body.bytes, partType: body.contentType, fields: [] };
  }
  return new Promise<ChunkBody>((resolve, reject) => {
    let form: InstanceType<typeof Busboy>;
    try {
      form = new Busboy({
        headers: { 'content-type': body.contentType },
        limits: { files: MAX_FILE_PARTS, fields: MAX_FORM_FIELDS },
      });
    } catch (error) {
      reject(badForm((error as Error).message));
      return;
    }
    let file: { bytes: Buffer; partType: string } | undefined;
    let fileParts = 0;
    const fields: ChunkBody['fields'] = [];
    form.on('field', (name, value) => fields.push([name, value]));
    form.on('fieldsLimit', () =>
      reject(badForm(`the form has more than ${MAX_FORM_FIELDS} fields besides the file`)),
    );
    form.on('filesLimit', () => reject(badForm(`the form has more than ${MAX_FILE_PARTS} file parts`)));
    form.on('file', (field, stream, _fileName, _encoding, mimeType) => {
      // A form cut off inside a part fails its stream: unheard, that error would end the process.
      stream.on('error', (error: Error) => reject(badForm(error.message)));
      if (field !== CHUNK_FORM_FIELD) {
        stream.resume(); // read past it
        return;
      }
      if (++fileParts > 1)
        reject(badForm(`the form has more than one file part named "${CHUNK_FORM_FIELD}"`));
      const parts: Buffer[] = [];
      stream.on('data', (part: Buffer) => parts.push(part));
      stream.on('end', () => {
        file = { bytes: Buffer.concat(parts), partType: mimeType };
      });
    });
    form.on('error', (error: Error) => reject(badForm(error.message)));
    form.on('finish', () =>
      file
        ? resolve({ ...file, fields })
        : reject(badForm(`the form has no file part named "${CHUNK_FORM_FIELD}"`)),
    );
    form.end(body.bytes);
  });
}
