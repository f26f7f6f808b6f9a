/**
 * The BPMN file an import keeps goes with the process's diagram: restoring an earlier version of the
 * process (its content) keeps it, and purging the process removes it from the bucket for good.
 */
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { describe, expect, it } from 'vitest';
import { readReference } from '../unit/bpmn/bpmn-test-support.ts';
import { createOfType } from './helpers/library.ts';
import { type AdminSession, type ApiClient, bucketClient, withAdminSession } from './helpers/test-stack.ts';

let session: AdminSession;
let api: ApiClient;
let token: string;
let environmentId: string;
withAdminSession((s) => {
  session = s;
  ({ api, token, environmentId } = s);
});

const MODEL = 'A.2.0.bpmn';

/** A process with the reference model imported, and its version before the import. */
async function importedProcess(name: string) {
  const process = await createOfType(api, token, environmentId, 'PROCESS', name);
  const imported = await api.call('POST', `/api/v1/process/processes/${process.nodeId}/bpmn`, {
    token,
    rawBody: readReference(MODEL),
    headers: { 'content-type': 'application/bpmn+xml' },
  });
  expect(imported.status, imported.text).toBe(200);
  return { processId: process.nodeId as string, beforeImport: process.nodeVersionId as string };
}

const exported = async (processId: string) => {
  const answer = await api.call('GET', `/api/v1/process/processes/${processId}/bpmn`, { token });
  expect(answer.status, answer.text).toBe(200);
  return answer.text;
};

/** The keys the bucket holds under a process's BPMN files. */
async function keptFiles(processId: string): Promise<string[]> {
  const { s3, Bucket } = bucketClient(session.ctx.stack);
  const listed = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: `bpmn/${processId}/` }));
  return (listed.Contents ?? []).map((object) => String(object.Key));
}

describe('the exported file', () => {
  it('is named after the process, in any script, as an attachment', async () => {
    const process = await createOfType(api, token, environmentId, 'PROCESS', 'Überprüfung / 審査 "final"');
    const answer = await api.call('GET', `/api/v1/process/processes/${process.nodeId}/bpmn`, { token });
    expect(answer.status, answer.text).toBe(200);
    const disposition = String(answer.headers.get('content-disposition'));
    expect(disposition).toMatch(/^attachment; /);
    expect(disposition).toContain(
      `filename*=UTF-8''${encodeURIComponent('Überprüfung _ 審査 "final".bpmn').replace(/'/g, '%27')}`,
    );
  });
});

describe('the imported BPMN file', () => {
  it('stays with the diagram when an earlier version of the process is restored', async () => {
    const { processId, beforeImport } = await importedProcess('Restored to before its import');
    const before = await exported(processId);
    // The imported model's events, gateways and lanes are in the file kept, not in the tasks.
    expect(before).toContain('startEvent');
    const current = (await api.call('GET', `/api/v1/items/${processId}`, { token })).body;
    const restored = await api.call('POST', `/api/v1/items/${processId}/versions/${beforeImport}/restore`, {
      token,
      body: { nodeVersionId: current.nodeVersionId },
    });
    expect(restored.status, restored.text).toBe(200);
    expect(await exported(processId)).toBe(before);
  });

  it('is removed from the bucket when the process is purged', async () => {
    const { processId } = await importedProcess('Purged with its file');
    expect(await keptFiles(processId)).toHaveLength(1);
    const deleted = await api.call('DELETE', `/api/v1/items/${processId}`, { token, body: {} });
    expect(deleted.status, deleted.text).toBe(200);
    // In the trash it is kept: a restore brings the process back with its file.
    expect(await keptFiles(processId)).toHaveLength(1);
    expect((await api.call('DELETE', `/api/v1/trash/${processId}`, { token })).status).toBe(204);
    expect(await keptFiles(processId)).toEqual([]);
  });
});
