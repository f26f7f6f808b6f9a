import { downloadFile } from '#shared/api/operations/uploads.ts';
import { DOWNLOAD_SAFETY_HEADERS } from '#shared/domain/file-names.ts';
import { handle } from '#shared/http/operation.ts';
import { header, preconditionsOf } from '#shared/http/request-headers.ts';
import { empty } from '#shared/http/responses.ts';
import { downloadFile as download } from '#shared/services/file-download.ts';

/** GET (and HEAD) /api/v1/document/documents/{documentId}/content: the file of a FILE document. */
export const handler = handle(downloadFile, async ({ caller, path, query, event }) => {
  const answer = await download(caller, path.documentId, query.draft, {
    range: header(event, 'range'),
    ifRange: header(event, 'if-range'),
    ...preconditionsOf(event),
    headersOnly: event.requestContext.http.method === 'HEAD',
  });
  const common = { ...DOWNLOAD_SAFETY_HEADERS, etag: answer.etag, 'accept-ranges': 'bytes' };
  switch (answer.kind) {
    case 'notModified':
      return empty(304, common);
    case 'redirect':
      return empty(302, { ...common, location: answer.url });
    case 'bytes': {
      const { range, size, bytes, length } = answer;
      return {
        statusCode: range ? 206 : 200,
        headers: {
          ...common,
          'content-type': answer.contentType,
          'content-disposition': answer.disposition,
          // A HEAD's answer has no body: it says how long the GET's would be.
          ...(bytes ? {} : { 'content-length': String(length) }),
          ...(range ? { 'content-range': `bytes ${range.start}-${range.end}/${size}` } : {}),
        },
        body: bytes ? bytes.toString('base64') : '',
        isBase64Encoded: bytes !== null,
      };
    }
  }
});
