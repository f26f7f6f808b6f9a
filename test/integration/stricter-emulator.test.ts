/**
 * The data layer's newer calls against a second, stricter emulator (moto_server: DynamoDB and S3 on one
 * endpoint, on this image and CI's): the receipt of chunks as a number set with its conditions, the
 * assembly lease, the streamed multipart assembly, file tags, ranges and presigned URLs, version history by
 * key order, claiming an upload, and the projection lists read objects with. What dynalite and s3rver accept, DynamoDB and S3 may refuse; moto is
 * closer to them on expression syntax, reserved words and multipart rules.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBucket, ensureTable } from '#infra/local/ensure-resources.ts';
import { readServiceConfig, type ServiceConfig, withConfig } from '#shared/config/index.ts';
import { readFileRange } from '#shared/data/file-reads.ts';
import { markFileAttached } from '#shared/data/file-tags.ts';
import { findListedNodes, findNodes } from '#shared/data/node-repository.ts';
import { commitNodeWrites } from '#shared/data/node-write-path.ts';
import { firstPublishedVersionSince } from '#shared/data/published-versions.ts';
import { putChunk } from '#shared/data/upload-chunk-store.ts';
import { assembleFile } from '#shared/data/upload-objects.ts';
import {
  countOpenUploads,
  endAssembly,
  findUpload,
  recordChunk,
  startUpload,
  takeForAssembly,
} from '#shared/data/upload-repository.ts';
import { findVersion, versionsPage } from '#shared/data/version-repository.ts';
import { type Node, newNode, newVersionId, timestamp } from '#shared/domain/node.ts';
import { type Upload, uploadKeyOf } from '#shared/domain/uploads/upload.ts';

const hasMoto = spawnSync('moto_server', ['--help']).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'moto-'));
let moto: ChildProcess | undefined;
let config: ServiceConfig;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

async function reachable(endpoint: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      await fetch(endpoint);
      return;
    } catch {
      await new Promise((done) => setTimeout(done, 100));
    }
  }
  throw new Error(`moto_server did not start at ${endpoint}`);
}

beforeAll(async () => {
  if (!hasMoto) return;
  const port = await freePort();
  moto = spawn('moto_server', ['-H', '127.0.0.1', '-p', String(port)], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}`;
  await reachable(endpoint);
  await ensureTable(endpoint, 'strict');
  await ensureBucket(endpoint, 'strict');
  const keyFile = join(dir, 'key.pem');
  writeFileSync(
    keyFile,
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  config = readServiceConfig({
    TABLE_NAME: 'strict',
    BUCKET_NAME: 'strict',
    DYNAMODB_ENDPOINT: endpoint,
    S3_ENDPOINT: endpoint,
    TOKEN_SIGNING_KEY_FILE: keyFile,
  });
}, 60_000);
afterAll(() => {
  moto?.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(hasMoto)('the data layer on moto_server', () => {
  it('receives chunks, assembles the file with its SHA-256, tags it and claims the upload', () =>
    withConfig(config, async () => {
      const now = Date.now();
      const upload: Upload = {
        identifier: 'strict-1',
        fileName: 'a.bin',
        declaredType: null,
        totalSize: 10,
        chunkSize: 5,
        totalChunks: 2,
        chunks: new Set(),
        state: 'receiving',
        createdAt: timestamp(),
        updatedAt: timestamp(),
        expiresAtEpoch: Math.floor(now / 1000) + 3600,
      };
      const key = uploadKeyOf(upload.identifier);
      expect(await startUpload('U1', upload, now)).toBe(true);
      expect(await startUpload('U1', upload, now)).toBe(false);
      expect(await countOpenUploads('U1', now)).toBe(1);
      await putChunk('U1', key, 2, Buffer.from('world'));
      await putChunk('U1', key, 1, Buffer.from('hello'));
      expect((await recordChunk('U1', key, upload, 2, Date.now()))?.chunks).toEqual(new Set());
      expect((await recordChunk('U1', key, upload, 2, Date.now()))?.chunks).toEqual(new Set([2]));
      expect(await takeForAssembly('U1', key, Date.now(), Date.now() + 60_000)).toBeNull();
      expect((await recordChunk('U1', key, upload, 1, Date.now()))?.chunks).toEqual(new Set([2]));
      const leaseUntil = Date.now() + 60_000;
      const taken = await takeForAssembly('U1', key, Date.now(), leaseUntil);
      expect(taken?.state).toBe('assembling');
      // The record outlives the assembly's lease by a day, whenever its last chunk came.
      expect(taken?.expiresAtEpoch).toBe(Math.floor(leaseUntil / 1000) + 24 * 3600);
      expect(await takeForAssembly('U1', key, Date.now(), Date.now() + 60_000)).toBeNull();

      const file = await assembleFile('U1', key, 2, 'F-STRICT');
      expect(file).toEqual({ size: 10, sha256: createHash('sha256').update('helloworld').digest('hex') });
      const stored = { fileId: 'F-STRICT', size: file.size, sha256: file.sha256, contentType: null };
      expect(await endAssembly('U1', key, Date.now(), { file: stored })).toBe(true);
      await markFileAttached('F-STRICT');
      expect((await readFileRange('F-STRICT', 2, 6)).toString()).toBe('llowo');

      const document = newNode(
        { principalId: 'U1', name: 'u' },
        { nodeType: 'DOCUMENT', name: 'Doc', parentId: 'P', environmentId: 'E', ancestorIds: ['E', 'P'] },
        timestamp(),
      );
      await commitNodeWrites([{ kind: 'create', node: document }]);
      const claim = {
        kind: 'claimUpload' as const,
        principalId: 'U1',
        uploadKey: key,
        nodeId: document.nodeId,
      };
      await commitNodeWrites([{ ...claim, at: timestamp() }]);
      expect((await findUpload('U1', key, Date.now()))?.state).toBe('attached');
      await expect(commitNodeWrites([{ ...claim, at: timestamp() }])).rejects.toThrow();
    }));

  it('keeps versions in key order, reads one back, and finds the first version published since a moment', () =>
    withConfig(config, async () => {
      const since = Date.now();
      const first: Node = newNode(
        { principalId: 'U1', name: 'u' },
        { nodeType: 'DOCUMENT_SET', name: 'V', parentId: 'P', environmentId: 'E', ancestorIds: ['E', 'P'] },
        timestamp(),
      );
      await commitNodeWrites([{ kind: 'create', node: first }]);
      let current = first;
      const next = async (changes: Partial<Node>) => {
        const nodeVersionId = newVersionId();
        // A publish names itself as the published version, as publish-service does.
        const published = changes.nodeStatus === 'PUBLISHED' ? { publishedNodeVersionId: nodeVersionId } : {};
        const node = { ...current, nodeVersionId, ...changes, ...published };
        await commitNodeWrites([
          {
            kind: 'replace',
            node,
            expectedNodeVersionId: current.nodeVersionId,
            previous: current,
            previousStatus: current.nodeStatus,
          },
          ...(node.nodeStatus === 'PUBLISHED' ? [{ kind: 'publish' as const, node }] : []),
        ]);
        current = node;
      };
      await next({ version: '0.0002' });
      await next({ version: '1.0000', nodeStatus: 'PUBLISHED' });
      await next({ version: '1.0001', nodeStatus: 'IN_PROGRESS' });
      const page = await versionsPage(first.nodeId, 2);
      expect(page.versions.map((v) => v.version)).toEqual(['1.0000', '0.0002']);
      const rest = await versionsPage(first.nodeId, 2, page.next);
      expect(rest.versions.map((v) => v.version)).toEqual(['0.0001']);
      expect((await findVersion(first.nodeId, first.nodeVersionId))?.version).toBe('0.0001');
      expect((await firstPublishedVersionSince(first.nodeId, since))?.version).toBe('1.0000');
      expect(await firstPublishedVersionSince(first.nodeId, Date.now() + 1000)).toBeNull();
    }));

  it("reads listed objects by a projection: every field a list shows, not the kind's own", () =>
    withConfig(config, async () => {
      const placed = { parentId: 'P', environmentId: 'E', ancestorIds: ['E', 'P'] };
      const author = { principalId: 'U1', name: 'u' };
      const documents = ['A', 'B'].map((name) => ({
        ...newNode(author, { nodeType: 'DOCUMENT', name, ...placed }, timestamp()),
        richTextDescription: '<p>about</p>',
        fields: { documentType: 'URL', url: `https://example.com/${name}` },
      }));
      await commitNodeWrites(documents.map((node) => ({ kind: 'create' as const, node })));
      const ids = documents.map((node) => node.nodeId);
      const byId = <N extends { nodeId: string }>(found: N[]) =>
        [...found].sort((a, b) => a.nodeId.localeCompare(b.nodeId));
      const whole = byId(await findNodes(ids, { consistent: false }));
      const listed = byId(await findListedNodes(ids, { consistent: false }));
      expect(whole).toHaveLength(2);
      expect(listed).toEqual(
        whole.map(({ environmentId, ancestorIds, createdBy, modifiedBy, fields, ...shown }) => shown),
      );
      expect(listed[0]).not.toHaveProperty('fields');
      expect(listed[0]).not.toHaveProperty('url');
    }));
});
