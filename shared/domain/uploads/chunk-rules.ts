/**
 * The chunks of a resumable.js upload: which query a chunk comes with, where it sits in its file, and how
 * many bytes it must hold. The arithmetic is resumable.js's own (ResumableFile.bootstrap and ResumableChunk),
 * so every chunk it sends is accepted as sent, and nothing else is.
 */
import * as z from 'zod/mini';
import { type FieldError, PayloadTooLargeError, ValidationError } from '../errors.ts';
import { parseMediaType } from '../file-names.ts';
import { countParam } from '../schema-parts.ts';

export const UPLOAD_LIMITS = {
  /** Base64 in a Lambda event stays under the 6 MB invoke payload. */
  maxChunkBytes: 4 * 1024 * 1024,
  maxFileBytes: 2 * 1024 * 1024 * 1024,
  maxChunks: 10_000,
  maxOpenUploadsPerUser: 50,
  identifierMaxLength: 200,
  fileNameMaxLength: 1000,
} as const;

const noControlCharacters = z.refine<string>((s) => !/\p{Cc}/u.test(s), {
  message: 'must not contain control characters',
  params: { rule: 'control_characters' },
});
const noNul = z.refine<string>((s) => !s.includes('\u0000'), {
  message: 'must not contain NUL',
  params: { rule: 'nul' },
});
// Any other character is allowed: storedFileName decides what the file is shown as.
const fileNameParam = z.string().check(z.minLength(1), z.maxLength(UPLOAD_LIMITS.fileNameMaxLength), noNul);

/** The query of POST and GET /upload/ (strings in, numbers out). Unknown parameters are refused, as on every route. */
export const resumableQuerySchema = z.strictObject({
  resumableIdentifier: z
    .string()
    .check(z.minLength(1), z.maxLength(UPLOAD_LIMITS.identifierMaxLength), noControlCharacters),
  resumableFilename: fileNameParam,
  resumableRelativePath: z.optional(fileNameParam),
  /** resumable.js sends `resumableType=` for a file without a type. */
  resumableType: z.optional(
    z.string().check(
      z.refine((s) => s === '' || parseMediaType(s) !== null, {
        message: 'must be a media type such as text/plain, at most 255 characters',
        params: { rule: 'media_type' },
      }),
    ),
  ),
  resumableChunkNumber: countParam(1),
  resumableChunkSize: countParam(1),
  resumableCurrentChunkSize: z.optional(countParam(0)),
  resumableTotalSize: countParam(0, UPLOAD_LIMITS.maxFileBytes),
  resumableTotalChunks: z.optional(countParam(1)),
});
export type ResumableQuery = z.output<typeof resumableQuerySchema>;

export interface ChunkPlan {
  chunkNumber: number;
  totalChunks: number;
  /** Bytes this chunk must have; null for the spec's single-chunk form (any size up to maxChunkBytes). */
  expectedBytes: number | null;
  /** The file's size once complete; null for the spec's single-chunk form (the body's size decides). */
  fileBytes: number | null;
}

const queryError = (parameter: keyof ResumableQuery, rule: string, message: string): FieldError => ({
  in: 'query',
  path: `$.${parameter}`,
  rule,
  message,
});

/**
 * resumable.js cuts a file of S bytes into chunks of C: by default T = max(floor(S/C), 1) chunks, the last
 * running to the end of the file (C to 2C-1 bytes); with `forceChunkSize`, T = max(ceil(S/C), 1), all of C
 * bytes but a shorter last one. Chunk n starts at (n-1)·C either way.
 *
 * With the default rule the last chunk can hold up to 2C-1 bytes, so clients should keep C at 2 MiB or
 * less: above that, some file sizes give a last chunk over maxChunkBytes, refused every time it is sent,
 * and the upload can never complete. With forceChunkSize, C up to maxChunkBytes is safe.
 */
function layout(totalSize: number, chunkSize: number, forced: boolean) {
  const round = forced ? Math.ceil : Math.floor;
  const totalChunks = Math.max(round(totalSize / chunkSize), 1);
  const bytesOf = (n: number) => {
    const start = (n - 1) * chunkSize;
    const end = n === totalChunks && !forced ? totalSize : Math.min(totalSize, n * chunkSize);
    return end - start;
  };
  return { totalChunks, bytesOf };
}

/**
 * The spec's single-chunk form (§4.2): chunk size 1 and total size 1 stand for "the body is the file".
 * Any other single-chunk upload (resumable.js's for a file under two chunk sizes) declares its size and
 * is held to it, so a short body cannot pass for the whole file.
 */
const isSpecSingleChunk = (query: ResumableQuery) =>
  query.resumableChunkSize === 1 && query.resumableTotalSize === 1;

/**
 * The chunk's place in its upload. Throws a ValidationError naming each parameter that cannot describe a
 * chunk of resumable.js (a 400), or a PayloadTooLargeError when the chunk must be larger than maxChunkBytes.
 */
export function planChunk(query: ResumableQuery): ChunkPlan {
  const {
    resumableTotalSize: size,
    resumableChunkSize: chunkSize,
    resumableChunkNumber: chunkNumber,
  } = query;
  const floor = layout(size, chunkSize, false);
  const ceil = layout(size, chunkSize, true);
  const sent = query.resumableTotalChunks;
  const errors: FieldError[] = [];

  // The count sent says which rule the client cuts by; without it, resumable.js's default (floor).
  if (sent !== undefined && sent !== floor.totalChunks && sent !== ceil.totalChunks) {
    const counts =
      floor.totalChunks === ceil.totalChunks
        ? `${floor.totalChunks}`
        : `${floor.totalChunks} (or ${ceil.totalChunks} with forceChunkSize)`;
    errors.push(
      queryError(
        'resumableTotalChunks',
        'total_chunks',
        `must be ${counts} for resumableTotalSize ${size} and resumableChunkSize ${chunkSize}`,
      ),
    );
  }
  const { totalChunks, bytesOf } = sent === ceil.totalChunks && sent !== floor.totalChunks ? ceil : floor;
  if (totalChunks > UPLOAD_LIMITS.maxChunks) {
    errors.push(
      queryError(
        'resumableChunkSize',
        'too_many_chunks',
        `cuts a file of ${size} bytes into ${totalChunks} chunks; at most ${UPLOAD_LIMITS.maxChunks} are ` +
          `accepted, so chunks must be at least ${Math.ceil(size / UPLOAD_LIMITS.maxChunks)} bytes`,
      ),
    );
  } else if (errors.length === 0 && chunkNumber > totalChunks) {
    errors.push(
      queryError('resumableChunkNumber', 'maximum', `must be at most ${totalChunks}, the number of chunks`),
    );
  }
  if (errors.length > 0) throw new ValidationError(errors);

  const current = query.resumableCurrentChunkSize;
  if (isSpecSingleChunk(query)) {
    // The spec's form says 1 for every size: the body is the whole file, whatever its size.
    if (current !== undefined && current > UPLOAD_LIMITS.maxChunkBytes) {
      throw new PayloadTooLargeError(UPLOAD_LIMITS.maxChunkBytes);
    }
    return { chunkNumber, totalChunks, expectedBytes: null, fileBytes: null };
  }
  const expectedBytes = bytesOf(chunkNumber);
  if (current !== undefined && current !== expectedBytes) {
    throw new ValidationError([
      queryError(
        'resumableCurrentChunkSize',
        'chunk_size',
        `must be ${expectedBytes}: chunk ${chunkNumber} of ${totalChunks} holds that many bytes`,
      ),
    ]);
  }
  if (expectedBytes > UPLOAD_LIMITS.maxChunkBytes)
    throw new PayloadTooLargeError(UPLOAD_LIMITS.maxChunkBytes);
  return { chunkNumber, totalChunks, expectedBytes, fileBytes: size };
}

/**
 * Checks a received body against its plan: a PayloadTooLargeError above maxChunkBytes; a ValidationError
 * naming the body when it is not exactly the chunk's bytes, or resumableCurrentChunkSize when a single
 * chunk's body is not the size it declares.
 */
export function checkChunkBody(plan: ChunkPlan, query: ResumableQuery, bodyBytes: number): void {
  if (bodyBytes > UPLOAD_LIMITS.maxChunkBytes) throw new PayloadTooLargeError(UPLOAD_LIMITS.maxChunkBytes);
  // planChunk has held resumableCurrentChunkSize to the chunk's bytes, so here the body is what is short.
  if (plan.expectedBytes !== null && bodyBytes !== plan.expectedBytes) {
    throw new ValidationError([
      {
        in: 'body',
        path: '$',
        rule: 'chunk_size',
        message:
          `must be ${plan.expectedBytes} bytes (chunk ${plan.chunkNumber} of ${plan.totalChunks}); ` +
          `it has ${bodyBytes}`,
      },
    ]);
  }
  const current = query.resumableCurrentChunkSize;
  if (current !== undefined && current !== bodyBytes) {
    throw new ValidationError([
      queryError(
        'resumableCurrentChunkSize',
        'chunk_size',
        `says ${current} bytes; the body has ${bodyBytes}`,
      ),
    ]);
  }
}
