/**
 * Uploads (spec §4.2, resumable.js and flow.js) and FILE documents (§2.2, §4.1) on the embedded stack: the chunk rules,
 * chunks out of order, in parallel and twice, resuming, the file assembled with its SHA-256, attaching it to
 * a document once, replacing it, downloading it (whole, by range, by redirect), and files that must never
 * run from this origin.
 */
import { createHash } from 'node:crypto';
import { DeleteObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uploadKeyOf } from '#shared/domain/uploads/upload.ts';
import { createNode, defaultEnvironmentId, folder } from './helpers/library.ts';
import { createUser, grant, PASSWORD } from './helpers/personas.ts';
import {
  type ApiClient,
  bucketClient,
  startTestStack,
  type TestStack,
  tableClient,
} from './helpers/test-stack.ts';

let ctx: TestStack;
let api: ApiClient;
let token: string;
let folderId: string;

beforeAll(async () => {
  ctx = await startTestStack();
  api = ctx.api;
  token = await api.login();
  folderId = (await createNode(api, token, folder(await defaultEnvironmentId(api, token), 'Files'))).nodeId;
});
afterAll(() => ctx.close());

const MiB = 1024 * 1024;
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Deterministic bytes that do not repeat in any short period. */
function fileBytes(size: number, seed = 1): Buffer {
  const bytes = Buffer.alloc(size);
  let state = seed;
  for (let i = 0; i < size; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

interface ChunkedFile {
  identifier: string;
  name: string;
  bytes: Buffer;
  chunkSize: number;
  /** resumable.js's count: max(floor(size / chunkSize), 1), the last chunk running to the end. */
  totalChunks: number;
}

const chunked = (identifier: string, bytes: Buffer, chunkSize: number, name = 'data.bin'): ChunkedFile => ({
  identifier,
  name,
  bytes,
  chunkSize,
  totalChunks: Math.max(Math.floor(bytes.length / chunkSize), 1),
});

function chunkOf(file: ChunkedFile, n: number): Buffer {
  const start = (n - 1) * file.chunkSize;
  const end = n === file.totalChunks ? file.bytes.length : n * file.chunkSize;
  return file.bytes.subarray(start, end);
}

function queryOf(file: ChunkedFile, n: number, extra: Record<string, string> = {}): string {
  return new URLSearchParams({
    resumableChunkNumber: String(n),
    resumableChunkSize: String(file.chunkSize),
    resumableCurrentChunkSize: String(chunkOf(file, n).length),
    resumableTotalSize: String(file.bytes.length),
    resumableType: 'application/octet-stream',
    resumableIdentifier: file.identifier,
    resumableFilename: file.name,
    resumableRelativePath: file.name,
    resumableTotalChunks: String(file.totalChunks),
    ...extra,
  }).toString();
}

const sendChunk = (file: ChunkedFile, n: number, as = token) =>
  api.call('POST', `/upload/?${queryOf(file, n)}`, {
    token: as,
    rawBody: chunkOf(file, n),
    headers: { 'content-type': 'application/octet-stream' },
  });

const testChunk = (file: ChunkedFile, n: number, as = token) =>
  api.call('GET', `/upload/?${queryOf(file, n)}`, { token: as });

const uploadState = (identifier: string, as = token) =>
  api.call('GET', `/api/v1/uploads/${encodeURIComponent(identifier)}`, { token: as });

/** The spec's single-chunk form: chunk size 1, total size 1, chunk number 1, the whole file as the body. */
async function singleChunk(
  identifier: string,
  name: string,
  body: string | Buffer,
  type?: string,
  as = token,
) {
  const query = new URLSearchParams({
    resumableIdentifier: identifier,
    resumableFilename: name,
    resumableRelativePath: name,
    resumableChunkSize: '1',
    resumableChunkNumber: '1',
    resumableTotalSize: '1',
    ...(type ? { resumableType: type } : {}),
  });
  return api.call('POST', `/upload/?${query}`, {
    token: as,
    rawBody: body,
    headers: { 'content-type': 'text/plain' },
  });
}

/** A multipart form as browsers send it: the fields in order, then the file part (if any) named `file`. */
async function multipart(
  fields: [string, string][],
  file?: { bytes: string | Buffer; name: string; type?: string },
): Promise<{ rawBody: Buffer; headers: { 'content-type': string } }> {
  const form = new FormData();
  for (const [name, value] of fields) form.append(name, value);
  if (file) form.append('file', new Blob([file.bytes], file.type ? { type: file.type } : {}), file.name);
  const request = new Request('http://x/', { method: 'POST', body: form });
  return {
    rawBody: Buffer.from(await request.arrayBuffer()),
    headers: { 'content-type': request.headers.get('content-type') as string },
  };
}

const fileDocument = (identifier: string, name: string, title = 'Report') => ({
  parent: { nodeId: folderId },
  '@type': 'Document',
  nodeType: 'DOCUMENT',
  name: title,
  documentType: 'FILE',
  fileInfo: { uploadIdentifier: identifier, name },
});

/** A FILE document (as created) holding a one-chunk upload of `text`. */
async function fileDocumentOf(identifier: string, name: string, text: string) {
  await singleChunk(identifier, name, text);
  const created = await api.call('POST', '/api/v1/items', { token, body: fileDocument(identifier, name) });
  expect(created.status, created.text).toBe(200);
  return created.body;
}

const download = (documentId: string, headers: Record<string, string> = {}, as = token) =>
  api.call('GET', `/api/v1/document/documents/${documentId}/content`, { token: as, headers });

describe('the spec single-chunk upload and a FILE document', () => {
  it('takes the same file sent again (200), and refuses another under the identifier it holds (400)', async () => {
    expect((await singleChunk('spec-again', 'd.txt', 'draft v1')).status).toBe(200);
    expect((await singleChunk('spec-again', 'd.txt', 'draft v1')).status).toBe(200);
    for (const other of ['final version 2 - much longer', 'draft v2']) {
      const refused = await singleChunk('spec-again', 'd.txt', other);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'UPLOAD_MISMATCH' });
      expect(refused.body.errors).toEqual([expect.objectContaining({ in: 'body', rule: 'matches_upload' })]);
    }
    expect((await uploadState('spec-again')).body).toMatchObject({
      state: 'complete',
      size: 8,
      sha256: sha256(Buffer.from('draft v1')),
    });
  });

  it('refuses another file of the same size under the identifier of a one-chunk resumable.js upload', async () => {
    const send = (body: string) =>
      api.call(
        'POST',
        `/upload/?${new URLSearchParams({ resumableIdentifier: '23-invoice', resumableFilename: 'invoice.txt', resumableChunkNumber: '1', resumableChunkSize: '1048576', resumableTotalSize: '23', resumableCurrentChunkSize: '23', resumableTotalChunks: '1' })}`,
        { token, rawBody: Buffer.from(body), headers: { 'content-type': 'application/octet-stream' } },
      );
    expect((await send('invoice total: 100 EUR\n')).status).toBe(200);
    expect((await send('invoice total: 100 EUR\n')).status).toBe(200);
    const other = await send('invoice total: 900 EUR\n');
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('UPLOAD_MISMATCH');
    expect((await uploadState('23-invoice')).body.sha256).toBe(
      sha256(Buffer.from('invoice total: 100 EUR\n')),
    );
  });

  it("records a raw body's Content-Type as the file's declared type, unless it says nothing of the file", async () => {
    const cases: [string, string, string | null][] = [
      ['raw-type-pdf', 'application/pdf', 'application/pdf'],
      ['raw-type-text', 'text/plain; charset=utf-8', 'text/plain; charset=utf-8'],
      ['raw-type-bytes', 'application/octet-stream', null],
      // curl --data-binary without -H sends its body as a form.
      ['raw-type-curl', 'application/x-www-form-urlencoded', null],
    ];
    for (const [identifier, contentType, recorded] of cases) {
      const query = new URLSearchParams({
        resumableIdentifier: identifier,
        resumableFilename: 'file.bin',
        resumableChunkSize: '1',
        resumableChunkNumber: '1',
        resumableTotalSize: '1',
      });
      const sent = await api.call('POST', `/upload/?${query}`, {
        token,
        rawBody: Buffer.from('%PDF-1.4 not really'),
        headers: { 'content-type': contentType },
      });
      expect(sent.status, sent.text).toBe(200);
      expect((await uploadState(identifier)).body.contentType, contentType).toBe(recorded);
    }
    // resumableType, when sent, says it.
    await singleChunk('raw-type-param', 'a.csv', 'a,b', 'text/csv');
    expect((await uploadState('raw-type-param')).body.contentType).toBe('text/csv');
  });

  it('stores the body as the file, records it on the document, and serves it back', async () => {
    const uploaded = await singleChunk('spec-1', 'report.txt', 'hello world', 'text/plain');
    expect(uploaded.status).toBe(200);
    expect(uploaded.headers.get('content-length')).toBe('0');

    const state = await uploadState('spec-1');
    expect(state.body).toMatchObject({
      state: 'complete',
      size: 11,
      sha256: sha256(Buffer.from('hello world')),
      contentType: 'text/plain',
      uploadUrl: `${ctx.stack.url}/upload/`,
    });

    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('spec-1', 'report.txt'),
    });
    expect(created.status).toBe(200);
    const typed = await api.call('GET', `/api/v1/document/documents/${created.body.nodeId}`, { token });
    expect(typed.body).toMatchObject({
      documentType: 'FILE',
      url: null,
      fileInfo: {
        uploadIdentifier: 'spec-1',
        name: 'report.txt',
        size: 11,
        contentType: 'text/plain',
        sha256: sha256(Buffer.from('hello world')),
      },
    });
    expect(typed.body.fileInfo).not.toHaveProperty('fileId');
    expect((await uploadState('spec-1')).body).toMatchObject({
      state: 'attached',
      attachedTo: created.body.nodeId,
    });

    const file = await download(created.body.nodeId);
    expect(file.status).toBe(200);
    expect(file.text).toBe('hello world');
    expect(file.headers.get('content-type')).toBe('text/plain');
    expect(file.headers.get('content-length')).toBe('11');
    expect(file.headers.get('content-disposition')).toBe('attachment; filename=report.txt');
    expect(file.headers.get('etag')).toBe(`"${sha256(Buffer.from('hello world'))}"`);
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');

    const again = await download(created.body.nodeId, {
      'if-none-match': file.headers.get('etag') as string,
    });
    expect(again.status).toBe(304);
  });

  it('answers 412 for an If-Match not naming the file (strong comparison), before If-None-Match and Range', async () => {
    const document = await fileDocumentOf('if-match-1', 'match.txt', 'hello match');
    const etag = `"${sha256(Buffer.from('hello match'))}"`;
    for (const ifMatch of ['"nope"', `W/${etag}`]) {
      const refused = await download(document.nodeId, { 'if-match': ifMatch });
      expect(refused.status, ifMatch).toBe(412);
      expect(refused.headers.get('content-type')).toBe('application/problem+json');
      expect(refused.body).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      expect(refused.body.detail).toContain('If-Match');
      expect(refused.headers.get('etag')).toBe(etag);
    }
    const first = await download(document.nodeId, { 'if-match': '"nope"', 'if-none-match': etag });
    expect(first.status).toBe(412);
    const ranged = await download(document.nodeId, { 'if-match': '"nope"', range: 'bytes=0-1' });
    expect(ranged.status).toBe(412);
    const head = await api.call('HEAD', `/api/v1/document/documents/${document.nodeId}/content`, {
      token,
      headers: { 'if-match': '"nope"' },
    });
    expect(head.status).toBe(412);

    for (const ifMatch of [etag, '*', `"nope", ${etag}`]) {
      const file = await download(document.nodeId, { 'if-match': ifMatch });
      expect(file.status, ifMatch).toBe(200);
      expect(file.text).toBe('hello match');
    }
    const part = await download(document.nodeId, { 'if-match': etag, range: 'bytes=0-4' });
    expect(part.status).toBe(206);
    expect(part.text).toBe('hello');
    expect((await download(document.nodeId, { 'if-match': etag, 'if-none-match': etag })).status).toBe(304);
  });

  it('honours Range only while If-Range names the current file (strong ETag comparison)', async () => {
    expect((await singleChunk('if-range-1', 'range.txt', 'hello world', 'text/plain')).status).toBe(200);
    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('if-range-1', 'range.txt'),
    });
    expect(created.status, created.text).toBe(200);
    const etag = `"${sha256(Buffer.from('hello world'))}"`;
    const matching = await download(created.body.nodeId, { range: 'bytes=0-1', 'if-range': etag });
    expect(matching.status).toBe(206);
    expect(matching.text).toBe('he');
    expect(matching.headers.get('content-range')).toBe('bytes 0-1/11');
    for (const ifRange of ['"nope"', `W/${etag}`, 'Sun, 06 Nov 1994 08:49:37 GMT', 'garbage']) {
      const whole = await download(created.body.nodeId, { range: 'bytes=0-1', 'if-range': ifRange });
      expect(whole.status, ifRange).toBe(200);
      expect(whole.text).toBe('hello world');
      expect(whole.headers.get('content-range')).toBeNull();
    }
    // Not the current file: Range is ignored, so a range outside it is no 416 either.
    const outside = await download(created.body.nodeId, { range: 'bytes=100-', 'if-range': '"nope"' });
    expect(outside.status).toBe(200);
  });

  it('takes resumable.js multipart forms (field "file") as well as raw bodies', async () => {
    const form = await multipart([['resumableChunkNumber', '1']], { bytes: 'from a form', name: 'form.txt' });
    const query = new URLSearchParams({
      resumableIdentifier: 'form-1',
      resumableFilename: 'form.txt',
      resumableChunkSize: '1048576',
      resumableChunkNumber: '1',
      resumableCurrentChunkSize: '11',
      resumableTotalSize: '11',
      resumableTotalChunks: '1',
    });
    const sent = await api.call('POST', `/upload/?${query}`, { token, ...form });
    expect(sent.status).toBe(200);
    expect((await uploadState('form-1')).body).toMatchObject({ state: 'complete', size: 11 });

    const refused = await api.call('POST', `/upload/?${query.toString().replace('form-1', 'form-2')}`, {
      token,
      ...(await multipart([['resumableChunkNumber', '1']])),
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]).toMatchObject({ in: 'body', path: '$.file' });

    // A form whose Content-Type lost its boundary is refused, not stored envelope and all as the file
    // (the spec's single-chunk form takes a body of any size).
    const single = new URLSearchParams({
      resumableIdentifier: 'form-3',
      resumableFilename: 'form.txt',
      resumableChunkSize: '1',
      resumableTotalSize: '1',
      resumableChunkNumber: '1',
    });
    const unbounded = await api.call('POST', `/upload/?${single}`, {
      token,
      rawBody: form.rawBody,
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(unbounded.status).toBe(400);
    expect(unbounded.body).toMatchObject({
      code: 'MALFORMED_FORM',
      errors: [{ in: 'body', path: '$.file' }],
    });
    expect((await uploadState('form-3')).status).toBe(404);
  });
});

describe('flow.js, and parameters in the form', () => {
  /** The parameters flow.js sends with chunk n (it sends no type), under its own names. */
  const flowFields = (file: ChunkedFile, n: number, extra: Record<string, string> = {}): [string, string][] =>
    Object.entries({
      flowChunkNumber: String(n),
      flowChunkSize: String(file.chunkSize),
      flowCurrentChunkSize: String(chunkOf(file, n).length),
      flowTotalSize: String(file.bytes.length),
      flowIdentifier: file.identifier,
      flowFilename: file.name,
      flowRelativePath: file.name,
      flowTotalChunks: String(file.totalChunks),
      ...extra,
    });
  /** flow.js's default upload: a multipart form holding the parameters and the chunk, no query. */
  const sendFlowChunk = async (file: ChunkedFile, n: number, extra: Record<string, string> = {}) =>
    api.call('POST', '/upload/', {
      token,
      ...(await multipart(flowFields(file, n, extra), {
        bytes: chunkOf(file, n),
        name: file.name,
        type: 'text/csv',
      })),
    });
  /** flow.js's test: a GET with the parameters in the query. */
  const testFlowChunk = (file: ChunkedFile, n: number, extra: Record<string, string> = {}) =>
    api.call('GET', `/upload/?${new URLSearchParams(flowFields(file, n, extra))}`, { token });

  it('takes flow.js chunks (its flow… names, only in the form) and its tests (in the query)', async () => {
    const file = chunked('flow-1', fileBytes(3 * 1000 + 500, 11), 1000, 'figures.csv');
    expect(file.totalChunks).toBe(3);
    expect((await testFlowChunk(file, 1)).status).toBe(204);
    const answers = await Promise.all([2, 1].map((n) => sendFlowChunk(file, n)));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await testFlowChunk(file, 1)).status).toBe(200);
    expect((await testFlowChunk(file, 3)).status).toBe(204);
    expect((await sendFlowChunk(file, 3)).status).toBe(200);

    // The form gave the file part a type; flow.js sends no parameter for it.
    expect((await uploadState(file.identifier)).body).toMatchObject({
      fileName: 'figures.csv',
      state: 'complete',
      totalChunks: 3,
      size: file.bytes.length,
      sha256: sha256(file.bytes),
      contentType: 'text/csv',
    });
  });

  it('names each refused flow.js parameter as it was sent, where it was sent, and stores nothing', async () => {
    const file = chunked('flow-2', fileBytes(3 * 1000, 12), 1000);
    const beyond = await sendFlowChunk(file, 1, { flowChunkNumber: '4' });
    expect(beyond.status).toBe(400);
    expect(beyond.body.errors).toEqual([
      {
        in: 'body',
        path: '$.flowChunkNumber',
        rule: 'maximum',
        message: 'must be at most 3, the number of chunks',
      },
    ]);
    expect(beyond.body.detail).toBe('body $.flowChunkNumber: must be at most 3, the number of chunks');
    // A parameter left out is named as flow.js names it, where it sends the others.
    const withoutIdentifier = await api.call('POST', '/upload/', {
      token,
      ...(await multipart(
        flowFields(file, 1).filter(([name]) => name !== 'flowIdentifier'),
        { bytes: chunkOf(file, 1), name: file.name },
      )),
    });
    expect(withoutIdentifier.status).toBe(400);
    expect(withoutIdentifier.body.errors).toEqual([
      { in: 'body', path: '$.flowIdentifier', rule: 'required', message: 'is required' },
    ]);
    const miscounted = await sendFlowChunk(file, 1, { flowTotalChunks: '7' });
    expect(miscounted.status).toBe(400);
    expect(miscounted.body.errors).toMatchObject([{ in: 'body', path: '$.flowTotalChunks' }]);
    expect(miscounted.body.errors[0].message).toBe('must be 3 for flowTotalSize 3000 and flowChunkSize 1000');
    expect(miscounted.text).not.toContain('resumable');

    const unknown = await testFlowChunk(file, 1, { flowChunkNumber: 'first', flowColour: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((e: { in: string; path: string }) => `${e.in} ${e.path}`).sort()).toEqual([
      'query $.flowChunkNumber',
      'query $.flowColour',
    ]);
    expect(unknown.text).not.toContain('resumable');

    const afterStart = await sendFlowChunk(file, 1);
    expect(afterStart.status).toBe(200);
    const otherFile = await sendFlowChunk(file, 2, { flowFilename: 'other.bin' });
    expect(otherFile.status).toBe(400);
    expect(otherFile.body).toMatchObject({
      code: 'UPLOAD_MISMATCH',
      errors: [{ in: 'body', path: '$.flowFilename', rule: 'matches_upload' }],
    });
    expect((await uploadState(file.identifier)).body).toMatchObject({
      state: 'receiving',
      chunksReceived: 1,
    });
  });

  it('refuses a parameter sent twice, in both namings, or differing between the query and the form', async () => {
    const file = chunked('twice-1', fileBytes(2 * 1000, 13), 1000);
    const query = new URLSearchParams(queryOf(file, 1));
    query.append('resumableIdentifier', 'twice-2');
    const repeated = await api.call('POST', `/upload/?${query}`, {
      token,
      rawBody: chunkOf(file, 1),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.body.errors).toMatchObject([
      { in: 'query', path: '$.resumableIdentifier', rule: 'repeated' },
    ]);

    const chunk = { bytes: chunkOf(file, 1), name: file.name };
    /** Chunk 1 as a form with these fields, after this query; the one error it is refused with. */
    const formRefusal = async (target: string, fields: [string, string][]) => {
      const answer = await api.call('POST', `/upload/?${target}`, {
        token,
        ...(await multipart(fields, chunk)),
      });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.errors).toHaveLength(1);
      return answer.body.errors[0];
    };
    const queryFor = (identifier: string, omit?: string) => {
      const parameters = new URLSearchParams(queryOf(chunked(identifier, file.bytes, 1000), 2));
      if (omit) parameters.delete(omit);
      return parameters.toString();
    };

    // resumable.js's multipart form repeats the query's parameters: they must agree.
    expect(await formRefusal(queryOf(file, 1), [['resumableChunkNumber', '2']])).toMatchObject({
      in: 'body',
      path: '$.resumableChunkNumber',
      rule: 'matches_query',
    });
    const agreeing = await api.call('POST', `/upload/?${queryOf(file, 1)}`, {
      token,
      ...(await multipart([...new URLSearchParams(queryOf(file, 1))], chunk)),
    });
    expect(agreeing.status).toBe(200);

    const flow3 = flowFields(chunked('twice-3', file.bytes, 1000), 2);
    expect(await formRefusal('', [...flow3, ['flowChunkNumber', '2']])).toMatchObject({
      in: 'body',
      path: '$.flowChunkNumber',
      rule: 'repeated',
    });
    expect(await formRefusal(queryFor('twice-4'), [['flowChunkNumber', '2']])).toEqual({
      in: 'body',
      path: '$.flowChunkNumber',
      rule: 'repeated',
      message: 'is sent as resumableChunkNumber too',
    });
    expect(
      await formRefusal(queryFor('twice-5', 'resumableRelativePath'), [['flowRelativePath', file.name]]),
    ).toMatchObject({
      in: 'body',
      path: '$.flowRelativePath',
      rule: 'parameter_names',
    });
    // Repeated in the form as well as the query; a form field no chunk has, under its own odd name.
    const twice = ['resumableIdentifier', 'twice-6'] as [string, string];
    expect(await formRefusal(queryFor('twice-6'), [twice, twice])).toMatchObject({
      in: 'body',
      path: '$.resumableIdentifier',
      rule: 'repeated',
    });
    expect(await formRefusal(queryFor('twice-6'), [['my-field', 'x']])).toEqual({
      in: 'body',
      path: '$["my-field"]',
      rule: 'unrecognized_key',
      message: 'is not a parameter of this operation',
    });

    expect((await uploadState('twice-1')).body).toMatchObject({ state: 'receiving', chunksReceived: 1 });
    for (const identifier of ['twice-2', 'twice-3', 'twice-4', 'twice-5', 'twice-6']) {
      expect((await uploadState(identifier)).status, identifier).toBe(404);
    }
  });

  it('reads forms as pages make them: other file parts, line breaks, and a form cut short', async () => {
    const file = chunked('form-parts-1', fileBytes(2 * 1000, 14), 1000, 'two\nlines.csv');
    const parts = (n: number, fields: [string, string][]) => {
      const form = new FormData();
      for (const [name, value] of fields) form.append(name, value);
      form.append('preview', new Blob(['not the chunk']), 'preview.png');
      form.append('file', new Blob([chunkOf(file, n)], { type: 'text/csv' }), file.name);
      return new Request('http://x/', { method: 'POST', body: form });
    };
    // resumable.js's form: the form sends the file name's line break as CRLF, the query as it was.
    const request = parts(1, [...new URLSearchParams(queryOf(file, 1))]);
    const first = await api.call('POST', `/upload/?${queryOf(file, 1)}`, {
      token,
      rawBody: Buffer.from(await request.arrayBuffer()),
      headers: { 'content-type': request.headers.get('content-type') as string },
    });
    expect(first.status, first.text).toBe(200);
    const second = await api.call('POST', `/upload/?${queryOf(file, 2)}`, {
      token,
      ...(await multipart([], { bytes: chunkOf(file, 2), name: file.name })),
    });
    expect(second.status, second.text).toBe(200);
    expect((await uploadState(file.identifier)).body).toMatchObject({
      fileName: 'two\nlines.csv',
      state: 'complete',
      sha256: sha256(file.bytes),
    });

    const twoFiles = new FormData();
    twoFiles.append('file', new Blob(['a']), 'a.bin');
    twoFiles.append('file', new Blob(['b']), 'b.bin');
    const twoFilesRequest = new Request('http://x/', { method: 'POST', body: twoFiles });
    const other = chunked('form-parts-2', fileBytes(1, 15), 1);
    const refused = await api.call('POST', `/upload/?${queryOf(other, 1)}`, {
      token,
      rawBody: Buffer.from(await twoFilesRequest.arrayBuffer()),
      headers: { 'content-type': twoFilesRequest.headers.get('content-type') as string },
    });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'MALFORMED_FORM', errors: [{ in: 'body', path: '$.file' }] });

    // Cut off inside the file part, with or without a token: a 400, and the service goes on.
    const cutShort = Buffer.from(
      '--XXB\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nhello',
    );
    for (const as of [undefined, token]) {
      const answer = await api.call('POST', `/upload/?${queryOf(other, 1)}`, {
        ...(as ? { token: as } : {}),
        rawBody: cutShort,
        headers: { 'content-type': 'multipart/form-data; boundary=XXB' },
      });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.code).toBe('MALFORMED_FORM');
    }
    expect((await uploadState(other.identifier)).status).toBe(404);
  });
});

describe('chunks', () => {
  it('arrive out of order and in parallel, a chunk sent twice is stored once, and the SHA-256 is the file’s', async () => {
    const file = chunked('parallel-1', fileBytes(3 * MiB + 512 * 1024, 7), MiB);
    expect(file.totalChunks).toBe(3);
    const answers = await Promise.all([3, 1, 2, 1].map((n) => sendChunk(file, n)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
    const state = await uploadState(file.identifier);
    expect(state.body).toMatchObject({ state: 'complete', chunksReceived: 3, totalChunks: 3 });
    expect(state.body.size).toBe(file.bytes.length);
    expect(state.body.sha256).toBe(sha256(file.bytes));
    // A chunk sent again after completion is still a 200 (resumable.js retries), and changes nothing.
    expect((await sendChunk(file, 2)).status).toBe(200);
    expect((await uploadState(file.identifier)).body.sha256).toBe(sha256(file.bytes));
  });

  it('resume: the test answers 200 for stored chunks and 204 for missing ones; a missing chunk blocks attaching', async () => {
    const file = chunked('resume-1', fileBytes(4 * 256 * 1024, 3), 256 * 1024);
    expect((await testChunk(file, 1)).status).toBe(204);
    await sendChunk(file, 1);
    await sendChunk(file, 2);
    expect((await testChunk(file, 1)).status).toBe(200);
    expect((await testChunk(file, 3)).status).toBe(204);
    expect((await uploadState(file.identifier)).body).toMatchObject({
      state: 'receiving',
      chunksReceived: 2,
    });

    const early = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument(file.identifier, file.name),
    });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('UPLOAD_RECEIVING');

    await sendChunk(file, 4);
    await sendChunk(file, 3);
    const done = await uploadState(file.identifier);
    expect(done.body).toMatchObject({ state: 'complete', sha256: sha256(file.bytes) });
    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument(file.identifier, file.name),
    });
    expect(created.status).toBe(200);
  });

  it('a failed upload is sent again under its identifier: the test answers 204, and the chunks start it over', async () => {
    const file = chunked('fails-once', fileBytes(2 * 1000, 21), 1000);
    expect((await sendChunk(file, 1)).status).toBe(200);
    // The first chunk is lost from the store before the last arrives: the assembly cannot make the file.
    const { s3, Bucket } = bucketClient(ctx.stack);
    const stored = await s3.send(new ListObjectsV2Command({ Bucket, Prefix: 'chunks/' }));
    const lost = (stored.Contents ?? []).filter((o) =>
      String(o.Key).includes(`/${uploadKeyOf(file.identifier)}/`),
    );
    expect(lost).toHaveLength(1);
    await s3.send(new DeleteObjectCommand({ Bucket, Key: String(lost[0]?.Key) }));
    await sendChunk(file, 2);
    expect((await uploadState(file.identifier)).body.state).toBe('failed');
    // resumable.js tests each chunk before sending it: none is there, so it sends them all again.
    expect((await testChunk(file, 1)).status).toBe(204);
    expect((await testChunk(file, 2)).status).toBe(204);
    expect((await sendChunk(file, 1)).status).toBe(200);
    expect((await sendChunk(file, 2)).status).toBe(200);
    expect((await uploadState(file.identifier)).body).toMatchObject({
      state: 'complete',
      sha256: sha256(file.bytes),
    });
  });

  it('refuses chunks that break resumable.js’s rules, naming the parameter, and stores nothing of them', async () => {
    const file = chunked('rules-1', fileBytes(3 * 1000, 5), 1000);
    const wrongSize = await api.call('POST', `/upload/?${queryOf(file, 1)}`, {
      token,
      rawBody: chunkOf(file, 1).subarray(1),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(wrongSize.status).toBe(400);
    const beyond = await api.call('POST', `/upload/?${queryOf(file, 4)}`, {
      token,
      rawBody: chunkOf(file, 3),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(beyond.status).toBe(400);
    expect(beyond.body.errors.map((e: { path: string }) => e.path)).toContain('$.resumableChunkNumber');
    const missing = await api.call('POST', '/upload/?resumableChunkNumber=1', { token, rawBody: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors.map((e: { path: string }) => e.path)).toEqual(
      expect.arrayContaining(['$.resumableIdentifier', '$.resumableFilename']),
    );
    expect((await uploadState(file.identifier)).status).toBe(404);

    await sendChunk(file, 1);
    const otherFile = await api.call(
      'POST',
      `/upload/?${queryOf(file, 2, { resumableFilename: 'other.bin' })}`,
      {
        token,
        rawBody: chunkOf(file, 2),
        headers: { 'content-type': 'application/octet-stream' },
      },
    );
    expect(otherFile.status).toBe(400);
    expect(otherFile.body.code).toBe('UPLOAD_MISMATCH');
  });

  it('refuses a chunk over 4 MiB with a 413', async () => {
    const big = Buffer.alloc(4 * MiB + 1);
    const answer = await singleChunk('too-big', 'big.bin', big);
    expect(answer.status).toBe(413);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
  });

  it('answers a throttled store with 503 and Retry-After (resumable.js retries), and the retry completes', async () => {
    const file = chunked('throttled-1', fileBytes(2000, 9), 1000);
    // The SDK tries a throttled call three times: the chunk's receipt fails all three.
    ctx.stack.dynamoDb.injectFault('UpdateItem', 'throttle', 3);
    const throttled = await sendChunk(file, 1);
    expect(throttled.status).toBe(503);
    expect(Number(throttled.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await sendChunk(file, 1)).status).toBe(200);
    expect((await sendChunk(file, 2)).status).toBe(200);
    expect((await uploadState(file.identifier)).body).toMatchObject({
      state: 'complete',
      sha256: sha256(file.bytes),
    });
  });

  it('assembles a 20 MB file in the background with the same SHA-256, and serves it by redirect and by range', async () => {
    const file = chunked('big-20', fileBytes(20_000_000, 11), 2 * MiB);
    for (let n = 1; n <= file.totalChunks; n += 3) {
      const batch = [n, n + 1, n + 2].filter((k) => k <= file.totalChunks);
      const answers = await Promise.all(batch.map((k) => sendChunk(file, k)));
      expect(answers.map((a) => `${a.status} ${a.status === 200 ? '' : a.text}`)).toEqual(
        batch.map(() => '200 '),
      );
    }
    await ctx.stack.backgroundIdle();
    const state = await uploadState(file.identifier);
    expect(state.body).toMatchObject({ state: 'complete', size: 20_000_000, sha256: sha256(file.bytes) });

    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument(file.identifier, file.name),
    });
    const redirect = await download(created.body.nodeId);
    expect(redirect.status).toBe(302);
    const fetched = await fetch(redirect.headers.get('location') as string);
    expect(fetched.status).toBe(200);
    expect(fetched.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(sha256(Buffer.from(await fetched.arrayBuffer()))).toBe(sha256(file.bytes));

    const range = await download(created.body.nodeId, { range: 'bytes=1000-1999' });
    expect(range.status).toBe(206);
    expect(range.headers.get('content-range')).toBe('bytes 1000-1999/20000000');
    expect(range.bytes.equals(file.bytes.subarray(1000, 2000))).toBe(true);
    const tail = await download(created.body.nodeId, { range: 'bytes=-10' });
    expect(tail.bytes.equals(file.bytes.subarray(-10))).toBe(true);
    const outside = await download(created.body.nodeId, { range: 'bytes=20000000-' });
    expect(outside.status).toBe(416);
    expect(outside.headers.get('content-range')).toBe('bytes */20000000');

    // HEAD: the headers of the whole file (a presigned URL is signed for GET), or of a range, no bytes.
    const content = `/api/v1/document/documents/${created.body.nodeId}/content`;
    const head = await api.call('HEAD', content, { token });
    expect(head.status).toBe(200);
    expect(head.bytes.length).toBe(0);
    expect(head.headers.get('location')).toBeNull();
    expect(head.headers.get('content-length')).toBe('20000000');
    expect(head.headers.get('etag')).toBe(`"${sha256(file.bytes)}"`);
    expect(head.headers.get('content-disposition')).toMatch(/^attachment/);
    const headRange = await api.call('HEAD', content, { token, headers: { range: 'bytes=1000-1999' } });
    expect(headRange.status).toBe(206);
    expect(headRange.headers.get('content-length')).toBe('1000');
    expect(headRange.headers.get('content-range')).toBe('bytes 1000-1999/20000000');
    expect((await api.call('HEAD', content)).status).toBe(401);
    const unknown = await api.call('HEAD', content.replace(created.body.nodeId, folderId), { token });
    expect(unknown.status).toBe(404);
    expect(unknown.bytes.length).toBe(0);
  });
});

describe('uploads belong to their uploader', () => {
  it('two users with one identifier have two uploads; only the uploader can attach theirs', async () => {
    const otherId = await createUser(api, token, 'uploader-two');
    const envId = await defaultEnvironmentId(api, token);
    await grant(api, token, envId, otherId, 'EDITOR');
    const other = await api.login('uploader-two', PASSWORD);

    await singleChunk('shared-id', 'mine.txt', 'admin bytes');
    await singleChunk('shared-id', 'theirs.txt', 'other bytes!', undefined, other);
    expect((await uploadState('shared-id')).body, 'the admin’s').toMatchObject({
      fileName: 'mine.txt',
      size: 11,
    });
    expect((await uploadState('shared-id', other)).body).toMatchObject({ fileName: 'theirs.txt', size: 12 });

    // The other user names the admin's file: it is their own upload of that identifier that counts.
    const wrongName = await api.call('POST', '/api/v1/items', {
      token: other,
      body: fileDocument('shared-id', 'mine.txt'),
    });
    expect(wrongName.status).toBe(400);
    expect(wrongName.body.errors[0]).toMatchObject({ path: '$.fileInfo.name', rule: 'matches_upload' });

    const theirs = await api.call('POST', '/api/v1/items', {
      token: other,
      body: fileDocument('shared-id', 'theirs.txt'),
    });
    expect(theirs.status).toBe(200);
    expect((await download(theirs.body.nodeId)).text).toBe('other bytes!');
    expect((await uploadState('shared-id')).body.state).toBe('complete');

    const stranger = await api.call('POST', '/api/v1/items', {
      token: other,
      body: fileDocument('only-admin-has-this', 'x.txt'),
    });
    expect(stranger.status).toBe(404);
    expect(stranger.body.errors[0]).toMatchObject({ path: '$.fileInfo.uploadIdentifier', rule: 'exists' });
  });

  it('an upload is attached at most once, and a reader who may not read the document gets a 404', async () => {
    await singleChunk('once-1', 'once.txt', 'once');
    const first = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('once-1', 'once.txt'),
    });
    expect(first.status).toBe(200);
    const second = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('once-1', 'once.txt', 'Copy'),
    });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('UPLOAD_ATTACHED');

    // Once attached, the identifier starts a new upload (resumable.js names files of one name and size alike).
    expect(
      (
        await api.call(
          'GET',
          `/upload/?${new URLSearchParams({ resumableIdentifier: 'once-1', resumableFilename: 'once.txt', resumableChunkSize: '1', resumableChunkNumber: '1', resumableTotalSize: '1' })}`,
          { token },
        )
      ).status,
    ).toBe(204);
    expect((await singleChunk('once-1', 'once.txt', 'twice')).status).toBe(200);
    const another = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('once-1', 'once.txt', 'Copy'),
    });
    expect(another.status).toBe(200);
    expect((await download(another.body.nodeId)).text).toBe('twice');
    expect((await download(first.body.nodeId)).text).toBe('once');

    const outsiderId = await createUser(api, token, 'outsider');
    const outsider = await api.login('outsider', PASSWORD);
    expect(outsiderId).toBeTruthy();
    expect((await download(first.body.nodeId, {}, outsider)).status).toBe(404);
  });

  it('refuses cross-site cookie uploads like other writes', async () => {
    const query = new URLSearchParams({
      resumableIdentifier: 'csrf-1',
      resumableFilename: 'x.txt',
      resumableChunkSize: '1',
      resumableChunkNumber: '1',
      resumableTotalSize: '1',
    });
    const answer = await api.call('POST', `/upload/?${query}`, {
      rawBody: 'x',
      headers: {
        cookie: `access_token=${token}`,
        'sec-fetch-site': 'cross-site',
        'content-type': 'text/plain',
      },
    });
    expect(answer.status).toBe(403);
    expect((await uploadState('csrf-1')).status).toBe(404);
  });

  it('an expired upload is gone: its state is a 404 and it cannot be attached', async () => {
    await singleChunk('expired-1', 'old.txt', 'old');
    await setUploadRecord('expired-1', { expiresAtEpoch: Math.floor(Date.now() / 1000) - 1 });
    expect((await uploadState('expired-1')).status).toBe(404);
    const attach = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('expired-1', 'old.txt'),
    });
    expect(attach.status).toBe(404);
  });

  it('an upload resumed every day expires 2 days after its first chunk, before S3 may expire that chunk', async () => {
    const file = chunked('resumed-daily', fileBytes(3 * 1000, 31), 1000);
    expect((await sendChunk(file, 1)).status).toBe(200);
    // It started almost 2 days ago, and its last chunk came 12 hours ago.
    const startedAt = Date.now() - 2 * DAY_MS + 60_000;
    await setUploadRecord(file.identifier, {
      createdAt: new Date(startedAt).toISOString(),
      expiresAtEpoch: Math.floor(Date.now() / 1000) + 12 * 3600,
    });
    expect((await sendChunk(file, 2)).status).toBe(200);
    const state = await uploadState(file.identifier);
    expect(state.body).toMatchObject({ state: 'receiving', chunksReceived: 2 });
    // Not a day after this chunk: 2 days after the first.
    expect(Date.parse(state.body.expiresAt)).toBe(Math.floor((startedAt + 2 * DAY_MS) / 1000) * 1000);
  });

  it('past its 2 days an upload is expired, even where its record (written before the limit) says later', async () => {
    const file = chunked('past-limit', fileBytes(3 * 1000, 32), 1000);
    expect((await sendChunk(file, 1)).status).toBe(200);
    expect((await sendChunk(file, 2)).status).toBe(200);
    await setUploadRecord(file.identifier, {
      createdAt: new Date(Date.now() - 2 * DAY_MS - 1000).toISOString(),
      expiresAtEpoch: Math.floor(Date.now() / 1000) + 12 * 3600,
    });
    const gone = await uploadState(file.identifier);
    expect(gone.status).toBe(404);
    expect(gone.body.code).toBe('UPLOAD_NOT_FOUND');
    // As for any expired upload: its chunks test absent, it cannot be attached, and a chunk starts anew.
    expect((await testChunk(file, 1)).status).toBe(204);
    expect((await testChunk(file, 2)).status).toBe(204);
    const attach = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument(file.identifier, file.name),
    });
    expect(attach.status).toBe(404);
    for (const n of [3, 1, 2]) expect((await sendChunk(file, n)).status).toBe(200);
    expect((await uploadState(file.identifier)).body).toMatchObject({
      state: 'complete',
      chunksReceived: 3,
      sha256: sha256(file.bytes),
    });
  });
});

const DAY_MS = 24 * 3600 * 1000;

/** Rewrites attributes of the caller's upload record, as time would have. */
async function setUploadRecord(identifier: string, values: Record<string, unknown>): Promise<void> {
  const { client, TableName } = tableClient(ctx.stack);
  const { UpdateCommand, QueryCommand } = await import('@aws-sdk/lib-dynamodb');
  const principalId = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub;
  const items = await client.send(
    new QueryCommand({
      TableName,
      KeyConditionExpression: 'PK = :pk AND begins_with(SK, :upload)',
      ExpressionAttributeValues: { ':pk': `USER#${principalId}`, ':upload': 'UPLOAD#' },
    }),
  );
  const item = items.Items?.find((i) => i.identifier === identifier);
  expect(item).toBeDefined();
  const names = Object.keys(values);
  await client.send(
    new UpdateCommand({
      TableName,
      Key: { PK: item?.PK, SK: item?.SK },
      UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(names.map((name, i) => [`#n${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(names.map((name, i) => [`:v${i}`, values[name]])),
    }),
  );
}

describe('FILE documents over versions', () => {
  it('replacing the file makes a new version; sending the retrieved document back keeps its file', async () => {
    await singleChunk('v-1', 'plan.txt', 'first plan');
    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('v-1', 'plan.txt', 'Plan'),
    });
    const retrieved = await api.call('GET', `/api/v1/items/${created.body.nodeId}`, { token });
    const renamed = await api.call('PUT', `/api/v1/items/${created.body.nodeId}`, {
      token,
      body: { ...retrieved.body, name: 'Plan (renamed)' },
    });
    expect(renamed.status).toBe(200);
    expect((await download(created.body.nodeId)).text).toBe('first plan');

    await singleChunk('v-2', 'plan.txt', 'second plan');
    const replaced = await api.call('PUT', `/api/v1/items/${created.body.nodeId}`, {
      token,
      body: {
        ...retrieved.body,
        nodeVersionId: renamed.body.nodeVersionId,
        fileInfo: { uploadIdentifier: 'v-2', name: 'plan.txt' },
      },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body.nodeVersionId).not.toBe(renamed.body.nodeVersionId);
    expect((await download(created.body.nodeId)).text).toBe('second plan');
    expect((await uploadState('v-1')).body.state).toBe('attached');
    expect((await uploadState('v-2')).body.state).toBe('attached');
  });

  it('a file missing from the store is a 404 FILE_NOT_FOUND, not a server error', async () => {
    await singleChunk('lost-1', 'lost.txt', 'lost content');
    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('lost-1', 'lost.txt', 'Lost'),
    });
    expect(created.status, created.text).toBe(200);
    const fileId = await ctx.stack.run(async () => {
      const { findNode } = await import('#shared/data/node-repository.ts');
      const document = await findNode(created.body.nodeId);
      if (!document) throw new Error('the document was not created');
      return (document.fields.fileInfo as { fileId: string }).fileId;
    });
    const { s3, Bucket } = bucketClient(ctx.stack);
    await s3.send(new DeleteObjectCommand({ Bucket, Key: `files/${fileId}` }));
    for (const headers of [{}, { range: 'bytes=0-3' }] as Record<string, string>[]) {
      const answer = await download(created.body.nodeId, headers);
      expect([answer.status, answer.body.code]).toEqual([404, 'FILE_NOT_FOUND']);
    }
  });

  it('attaches a file whose name has a carriage return, named as it was uploaded', async () => {
    for (const [identifier, name] of [
      ['icon-cr', 'Icon\r'],
      ['crlf', 'a\r\nb.txt'],
    ] as const) {
      expect((await singleChunk(identifier, name, 'x')).status).toBe(200);
      const attached = await api.call('POST', '/api/v1/items', {
        token,
        body: fileDocument(identifier, name, `Named ${identifier}`),
      });
      expect(attached.status, attached.text).toBe(200);
    }
  });

  it('a new upload under the identifier the document holds replaces its file (resumable.js reuses identifiers)', async () => {
    await singleChunk('same-id', 'notes.txt', 'notes v1');
    const created = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('same-id', 'notes.txt', 'Notes'),
    });
    expect(created.status, created.text).toBe(200);
    // Without a new upload, the minimal fileInfo keeps the file as the retrieved document does.
    const retrieved = await api.call('GET', `/api/v1/items/${created.body.nodeId}`, { token });
    const kept = await api.call('PUT', `/api/v1/items/${created.body.nodeId}`, {
      token,
      body: { ...retrieved.body, fileInfo: { uploadIdentifier: 'same-id', name: 'notes.txt' } },
    });
    expect(kept.status, kept.text).toBe(200);
    expect((await download(created.body.nodeId)).text).toBe('notes v1');
    // The same file edited, same size and name: the same identifier, a new upload.
    await singleChunk('same-id', 'notes.txt', 'notes v2');
    const replaced = await api.call('PUT', `/api/v1/items/${created.body.nodeId}`, {
      token,
      body: {
        ...retrieved.body,
        nodeVersionId: kept.body.nodeVersionId,
        fileInfo: { uploadIdentifier: 'same-id', name: 'notes.txt' },
      },
    });
    expect(replaced.status, replaced.text).toBe(200);
    expect((await download(created.body.nodeId)).text).toBe('notes v2');
    expect((await uploadState('same-id')).body).toMatchObject({ state: 'attached' });
    // The earlier version keeps the earlier file.
    const earlier = await api.call(
      'GET',
      `/api/v1/items/${created.body.nodeId}/versions/${created.body.nodeVersionId}`,
      { token },
    );
    const now = await api.call('GET', `/api/v1/items/${created.body.nodeId}?detail=true`, { token });
    expect(earlier.body.fileInfo.size).toBe('notes v1'.length);
    expect(earlier.body.fileInfo.sha256).not.toBe(now.body.fileInfo.sha256);
  });

  it('an upload finished before the document took its file, or one still arriving, is no new file', async () => {
    const editorId = await createUser(api, token, 'earlier-uploader');
    await grant(api, token, await defaultEnvironmentId(api, token), editorId, 'EDITOR');
    const editor = await api.login('earlier-uploader', PASSWORD);
    // The editor's upload under the identifier comes first; the admin's own, attached, after it.
    await singleChunk('report-id', 'report.pdf', 'an editor draft', undefined, editor);
    const created = await fileDocumentOf('report-id', 'report.pdf', 'the official report');
    const renamed = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token: editor,
      body: {
        ...created,
        name: 'Report, renamed',
        fileInfo: { uploadIdentifier: 'report-id', name: 'report.pdf' },
      },
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await download(created.nodeId)).text).toBe('the official report');
    expect((await uploadState('report-id', editor)).body).toMatchObject({ state: 'complete' });

    // A new upload under it, half sent: a rename keeps the file.
    const file = chunked('report-id', fileBytes(2 * MiB), MiB, 'report.pdf');
    expect((await sendChunk(file, 1)).status).toBe(200);
    const again = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: {
        ...created,
        nodeVersionId: renamed.body.nodeVersionId,
        name: 'Report, renamed again',
        fileInfo: { uploadIdentifier: 'report-id', name: 'report.pdf' },
      },
    });
    expect(again.status, again.text).toBe(200);
    expect((await download(created.nodeId)).text).toBe('the official report');
  });

  it('a new upload under the identifier a document holds, still being assembled, is a 409 to retry', async () => {
    const created = await fileDocumentOf('assembled-later', 'data.txt', 'first');
    await singleChunk('assembled-later', 'data.txt', 'second');
    // As a large file's background assembly would have it.
    await setUploadRecord('assembled-later', { state: 'assembling' });
    const refused = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: { ...created, fileInfo: { uploadIdentifier: 'assembled-later', name: 'data.txt' } },
    });
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body).toMatchObject({ code: 'UPLOAD_ASSEMBLING' });
    expect((await download(created.nodeId)).text).toBe('first');
  });

  it('a document made a link and then a file again takes back the upload it held', async () => {
    const created = await fileDocumentOf('held-before', 'plan.txt', 'the plan');
    const linked = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: { ...created, documentType: 'URL', url: 'https://intranet.example/plan', fileInfo: null },
    });
    expect(linked.status, linked.text).toBe(200);
    const back = await api.call('PUT', `/api/v1/items/${created.nodeId}`, {
      token,
      body: {
        ...linked.body,
        documentType: 'FILE',
        url: null,
        fileInfo: { uploadIdentifier: 'held-before', name: 'plan.txt' },
      },
    });
    expect(back.status, back.text).toBe(200);
    expect((await download(created.nodeId)).text).toBe('the plan');
    // Another document may still not take it.
    const other = await api.call('POST', '/api/v1/items', {
      token,
      body: fileDocument('held-before', 'plan.txt', 'Copy'),
    });
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({ code: 'UPLOAD_ATTACHED' });
    expect(other.body.errors).toEqual([
      expect.objectContaining({ path: '$.fileInfo.uploadIdentifier', rule: 'attachable' }),
    ]);
  });
});

describe('hostile files', () => {
  const names = [
    '../../etc/passwd',
    '..\\..\\boot.ini',
    'invoice\u202Egpj.exe',
    'bell\u0007and\u001bescape.txt',
    `${'a'.repeat(990)}.pdf`,
    'CON.txt',
  ];
  it('names with traversal, controls, RTL overrides or 1,000 characters are stored and served safely', async () => {
    for (const [i, name] of names.entries()) {
      const identifier = `hostile-${i}`;
      expect((await singleChunk(identifier, name, 'payload')).status).toBe(200);
      const created = await api.call('POST', '/api/v1/items', {
        token,
        body: fileDocument(identifier, name, `Hostile ${i}`),
      });
      expect(created.status).toBe(200);
      const stored = (await api.call('GET', `/api/v1/document/documents/${created.body.nodeId}`, { token }))
        .body.fileInfo.name as string;
      expect(stored).not.toMatch(/[/\\\p{Cc}\u202a-\u202e]/u);
      expect([...stored].length).toBeLessThanOrEqual(255);
      const disposition = (await download(created.body.nodeId)).headers.get('content-disposition') as string;
      expect(disposition).toMatch(/^attachment; /);
      // Printable ASCII only: no CR/LF to split the header, nothing a client could render as a different name.
      expect(disposition).toMatch(/^[\x20-\x7e]+$/);
    }
  });

  it('HTML and SVG never render from our origin, whatever type they were uploaded with', async () => {
    for (const [name, type, body] of [
      ['page.html', 'text/html', '<script>alert(1)</script>'],
      ['image.svg', 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'],
    ] as const) {
      const identifier = `active-${name}`;
      await singleChunk(identifier, name, body, type);
      const created = await api.call('POST', '/api/v1/items', {
        token,
        body: fileDocument(identifier, name, name),
      });
      const served = await download(created.body.nodeId);
      expect(served.headers.get('content-type')).toBe('application/octet-stream');
      expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(served.headers.get('content-security-policy')).toMatch(/sandbox/);
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });
});

describe('limits', () => {
  it('a user has at most 50 open uploads; the 51st is a 400 naming the limit', async () => {
    await createUser(api, token, 'busy-uploader');
    const busy = await api.login('busy-uploader', PASSWORD);
    for (let i = 0; i < 50; i += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, k) => singleChunk(`open-${i + k}`, 'a.txt', 'a', undefined, busy)),
      );
      expect(answers.every((a) => a.status === 200)).toBe(true);
    }
    const refused = await singleChunk('open-50', 'a.txt', 'a', undefined, busy);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('TOO_MANY_OPEN_UPLOADS');
    // Another user is not affected.
    expect((await singleChunk('open-50', 'a.txt', 'a')).status).toBe(200);
  });
});
