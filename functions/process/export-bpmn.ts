import { exportBpmn } from '#shared/api/operations/process.ts';
import { attachmentDisposition } from '#shared/domain/attachment-disposition.ts';
import { handle } from '#shared/http/operation.ts';
import { exportProcessBpmn } from '#shared/services/bpmn-service.ts';

/** GET /api/v1/process/processes/{processId}/bpmn: the process (draft=false: as published) as a BPMN 2.0 file. */
export const handler = handle(exportBpmn, async ({ caller, path, query }) => {
  const { xml, fileName } = await exportProcessBpmn(caller, path.processId, query.draft);
  return {
    statusCode: 200,
    headers: {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': attachmentDisposition(fileName),
      'cache-control': 'no-cache, no-transform, private',
    },
    body: xml,
  };
});
