import { NotFoundError } from '../errors.ts';

/** The caller has no (unexpired) upload under this identifier: another user's is never theirs. */
export function unknownUpload(identifier: string, where: 'path' | 'query' | 'body' = 'query'): NotFoundError {
  const path =
    where === 'path'
      ? '$.identifier'
      : where === 'query'
        ? '$.resumableIdentifier'
        : '$.fileInfo.uploadIdentifier';
  return new NotFoundError('UPLOAD_NOT_FOUND', `You have no upload with identifier ${identifier}`, [
    { in: where, path, rule: 'exists', message: 'must be the identifier of one of your uploads (unexpired)' },
  ]);
}
