/** Object key layout of the bucket; the lifecycle rules of the stack follow it. */

/** Upload chunks waiting for their siblings; abandoned ones expire (see the stack's lifecycle rules). */
export const UPLOAD_CHUNK_PREFIX = 'chunks/';
/** Assembled files attached to documents. */
export const FILE_PREFIX = 'files/';
/** BPMN files imported into processes, kept to give back on export what the import received. */
export const BPMN_TEMPLATE_PREFIX = 'bpmn/';
export const bpmnTemplateKey = (processId: string, templateId: string) =>
  `${BPMN_TEMPLATE_PREFIX}${processId}/${templateId}.bpmn`;
