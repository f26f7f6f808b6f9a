import { BadRequestError, type FieldError } from '../errors.ts';
import type { ChunkPlan, ResumableQuery } from './chunk-rules.ts';
import type { Upload } from './upload.ts';

/** Every chunk of an upload must describe the same file: a 400 naming each parameter that differs. */
export function sameFileOrRefuse(upload: Upload, query: ResumableQuery, plan: ChunkPlan): void {
  const differs = (parameter: string, sent: unknown, recorded: unknown): FieldError[] =>
    sent === recorded
      ? []
      : [
          {
            in: 'query',
            path: `$.${parameter}`,
            rule: 'matches_upload',
            message: `is ${String(sent)}, but this upload was started with ${String(recorded)}`,
          },
        ];
  const errors = [
    ...differs('resumableFilename', query.resumableFilename, upload.fileName),
    ...differs('resumableTotalSize', query.resumableTotalSize, upload.totalSize),
    ...differs('resumableChunkSize', query.resumableChunkSize, upload.chunkSize),
    ...differs('resumableTotalChunks', plan.totalChunks, upload.totalChunks),
  ];
  if (errors.length > 0) {
    throw new BadRequestError(
      'UPLOAD_MISMATCH',
      `This chunk describes another file than the upload ${upload.identifier} being received`,
      errors,
    );
  }
}
