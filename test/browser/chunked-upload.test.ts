/**
 * resumable.js and flow.js (from npm, loaded from node_modules, no network) upload a 5 MB file from Debian's
 * headless Chromium to /upload/ in 1 MiB chunks, three at a time, with their default multipart forms (flow.js
 * sends the parameters only there) and chunk tests: the upload completes with the file's size and SHA-256,
 * attaches to a FILE document, and downloads as the same bytes. An upload whose first chunks are stored
 * already resumes: the library sends only the others.
 *
 * The page and the library are served by the browser itself (page.route) at the stack's origin, so the
 * upload is same-origin, as when the application serves its own pages.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { Browser, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNode, defaultEnvironmentId, folder } from '../integration/helpers/library.ts';
import { startTestStack, type TestStack } from '../integration/helpers/test-stack.ts';
import { hasChromium, launchChromium } from './chromium.ts';

/** A chunked uploader from npm: where its script is, the global it defines, and the names it sends. */
interface Uploader {
  name: string;
  script: Buffer;
  global: 'Resumable' | 'Flow';
  /** The event after which upload() has the file to send (flow.js adds files in batches). */
  startOn: 'fileAdded' | 'filesSubmitted';
  /** What it names the chunk number parameter. */
  chunkNumberParameter: string;
}

const packageDirectory = (name: string) =>
  dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
const UPLOADERS: Uploader[] = [
  {
    name: 'resumable.js',
    script: readFileSync(join(packageDirectory('resumablejs'), 'resumable.js')),
    global: 'Resumable',
    startOn: 'fileAdded',
    chunkNumberParameter: 'resumableChunkNumber',
  },
  {
    name: 'flow.js',
    script: readFileSync(join(packageDirectory('@flowjs/flow.js'), 'dist', 'flow.js')),
    global: 'Flow',
    startOn: 'filesSubmitted',
    chunkNumberParameter: 'flowChunkNumber',
  },
];

const FILE_SIZE = 5_000_000;
const CHUNK_SIZE = 1024 * 1024;
const FILE_NAME = 'report.bin';
/** Not application/octet-stream, which a browser sends for a file without a type. */
const FILE_TYPE = 'application/pdf';
/** resumable.js's default chunking: T = max(floor(S/C), 1), the last chunk running to the end. */
const TOTAL_CHUNKS = Math.max(Math.floor(FILE_SIZE / CHUNK_SIZE), 1);
const ALL_CHUNKS = Array.from({ length: TOTAL_CHUNKS }, (_, i) => i + 1);

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>Upload</title>
<script src="/__test__/uploader.js"></script></head><body></body></html>`;

/** `size` pseudo-random bytes, the same for the same seed (xorshift32). */
function pseudoRandomBytes(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    for (let k = 0; k < 4 && i + k < size; k++) bytes[i + k] = (x >>> (8 * k)) & 0xff;
  }
  return bytes;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** Chunk n of resumable.js: [(n-1)·C, n·C), the last one running to the end of the file. */
const chunkOf = (bytes: Buffer, n: number) =>
  bytes.subarray((n - 1) * CHUNK_SIZE, n === TOTAL_CHUNKS ? bytes.length : n * CHUNK_SIZE);

/** The query resumable.js sends with chunk n (and its test): how an earlier session sent some chunks. */
function chunkQuery(identifier: string, n: number): string {
  const size = n === TOTAL_CHUNKS ? FILE_SIZE - (n - 1) * CHUNK_SIZE : CHUNK_SIZE;
  return new URLSearchParams({
    resumableChunkNumber: String(n),
    resumableChunkSize: String(CHUNK_SIZE),
    resumableCurrentChunkSize: String(size),
    resumableTotalSize: String(FILE_SIZE),
    resumableType: FILE_TYPE,
    resumableIdentifier: identifier,
    resumableFilename: FILE_NAME,
    resumableRelativePath: FILE_NAME,
    resumableTotalChunks: String(TOTAL_CHUNKS),
  }).toString();
}

/** What the browser sent to /upload/ and what it was answered, per method and chunk number. */
interface ChunkTraffic {
  /** e.g. 'POST 3' → [200]; one entry per request that got an answer. */
  answers: Map<string, number[]>;
  /** e.g. 'POST 3' → 1; one per request sent, answered or not. */
  sent: Map<string, number>;
  /** Requests that failed at the network level (no answer). */
  failed: string[];
  /** Settles once every request sent so far has its answer or failure recorded. */
  settled(): Promise<void>;
}

describe.runIf(hasChromium).each(UPLOADERS)('$name uploads to /upload/ from the browser', (uploader) => {
  let ctx: TestStack;
  let browser: Browser;
  let token: string;
  let folderId: string;

  beforeAll(async () => {
    ctx = await startTestStack();
    token = await ctx.api.login();
    const environmentId = await defaultEnvironmentId(ctx.api, token);
    folderId = (await createNode(ctx.api, token, folder(environmentId, 'Files'))).nodeId;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /**
   * A page at the stack's origin with the uploader loaded; its errors (console and uncaught) and its
   * traffic to /upload/ are recorded.
   */
  async function openPage(): Promise<{ page: Page; errors: string[]; traffic: ChunkTraffic }> {
    const page = await browser.newPage();
    const errors: string[] = [];
    // The page is routed, so every request is seen (and counted) before it leaves the browser; its answer
    // may be reported a little after the page has moved on, hence settled().
    let sentCount = 0;
    let doneCount = 0;
    let wake = () => {};
    const done = () => {
      doneCount++;
      wake();
    };
    const traffic: ChunkTraffic = {
      answers: new Map(),
      sent: new Map(),
      failed: [],
      settled: () =>
        new Promise<void>((resolve) => {
          wake = () => {
            if (doneCount >= sentCount) resolve();
          };
          wake();
        }),
    };
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const uploadKey = (request: Request): string | null => {
      const parsed = new URL(request.url());
      if (parsed.origin !== ctx.stack.url || parsed.pathname !== '/upload/') return null;
      return `${request.method()} ${chunkNumberOf(request)}`;
    };
    page.on('request', (request) => {
      const key = uploadKey(request);
      if (!key) return;
      sentCount++;
      traffic.sent.set(key, (traffic.sent.get(key) ?? 0) + 1);
    });
    page.on('response', (response) => {
      const key = uploadKey(response.request());
      if (!key) return;
      traffic.answers.set(key, [...(traffic.answers.get(key) ?? []), response.status()]);
      done();
    });
    page.on('requestfailed', (request) => {
      const key = uploadKey(request);
      if (!key) return;
      traffic.failed.push(`${key}: ${request.failure()?.errorText}`);
      done();
    });
    await page.route(`${ctx.stack.url}/__test__/upload.html`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: PAGE }),
    );
    await page.route(`${ctx.stack.url}/__test__/uploader.js`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: uploader.script }),
    );
    const loaded = await page.goto(`${ctx.stack.url}/__test__/upload.html`);
    expect(loaded?.status()).toBe(200);
    return { page, errors, traffic };
  }

  /** The chunk a request to /upload/ is about: named in its query, or in its form (flow.js's uploads). */
  function chunkNumberOf(request: Request): string | null {
    const inQuery = new URL(request.url()).searchParams.get(uploader.chunkNumberParameter);
    if (inQuery !== null) return inQuery;
    const form = request.postDataBuffer()?.toString('latin1') ?? '';
    return new RegExp(`name="${uploader.chunkNumberParameter}"\\r\\n\\r\\n(\\d+)`).exec(form)?.[1] ?? null;
  }

  /**
   * Uploads `bytes` as report.bin with the uploader in the page, as an application would: a fixed
   * identifier when given, the library's own otherwise. Settles on fileSuccess; throws on fileError or
   * error with the server's answer.
   */
  async function uploadInPage(page: Page, bytes: Buffer, identifier?: string): Promise<string> {
    return page.evaluate(
      ({ base64, target, token, chunkSize, fileName, fileType, identifier, global, startOn }) =>
        new Promise<string>((resolve, reject) => {
          const binary = atob(base64);
          const data = new Uint8Array(binary.length);
          for (let i = 0; i < binary.length; i++) data[i] = binary.charCodeAt(i);
          const file = new File([data], fileName, { type: fileType });
          const Uploader = (globalThis as unknown as Record<string, (new (o: object) => any) | undefined>)[
            global
          ];
          if (!Uploader) return reject(new Error(`the page has no ${global}`));
          const r = new Uploader({
            target,
            chunkSize,
            simultaneousUploads: 3,
            testChunks: true,
            method: 'multipart',
            headers: { Authorization: `Bearer ${token}` },
            ...(identifier ? { generateUniqueIdentifier: () => identifier } : {}),
          });
          if (!r.support) return reject(new Error(`${global} says this browser is not supported`));
          r.on('fileSuccess', (f: { uniqueIdentifier: string }) => resolve(f.uniqueIdentifier));
          r.on('fileError', (_f: unknown, message: string) => reject(new Error(`fileError: ${message}`)));
          r.on('error', (message: string) => reject(new Error(`error: ${message}`)));
          r.on(startOn, () => r.upload());
          r.addFile(file);
        }),
      {
        base64: bytes.toString('base64'),
        target: `${ctx.stack.url}/upload/`,
        token,
        chunkSize: CHUNK_SIZE,
        fileName: FILE_NAME,
        fileType: FILE_TYPE,
        identifier,
        global: uploader.global,
        startOn: uploader.startOn,
      },
    );
  }

  /** The upload's state once any background assembly has finished. */
  async function settledUpload(identifier: string) {
    await ctx.stack.backgroundIdle();
    const response = await ctx.api.call('GET', `/api/v1/uploads/${encodeURIComponent(identifier)}`, {
      token,
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  /** Attaches the upload to a new FILE document and downloads the document's content (over 4 MiB: a 302). */
  async function attachAndDownload(identifier: string, name: string) {
    const document = await ctx.api.call('POST', '/api/v1/items?draft=true', {
      token,
      body: {
        parent: { nodeId: folderId },
        '@type': 'Document',
        nodeType: 'DOCUMENT',
        name,
        documentType: 'FILE',
        fileInfo: { uploadIdentifier: identifier, name: FILE_NAME },
      },
    });
    expect(document.status, document.text).toBe(200);
    const documentId: string = document.body.nodeId;
    const answer = await ctx.api.call('GET', `/api/v1/document/documents/${documentId}/content`, { token });
    // Over 4 MiB: a redirect to a presigned URL on the file store, which answers the bytes.
    expect(answer.status).toBe(302);
    const location = answer.headers.get('location') as string;
    expect(new URL(location).origin).toBe(ctx.stack.config.s3Endpoint);
    const followed = await fetch(location);
    expect(followed.status).toBe(200);
    const content = Buffer.from(await followed.arrayBuffer());
    return { document: document.body, answer, content };
  }

  it('uploads a 5 MB file in 1 MiB chunks, three at a time, and downloads the same bytes', async () => {
    const bytes = pseudoRandomBytes(FILE_SIZE, 0x5eed_0001);
    const digest = sha256(bytes);
    const { page, errors, traffic } = await openPage();

    const identifier = await uploadInPage(page, bytes);
    await traffic.settled();
    await page.close();

    expect(errors).toEqual([]);
    expect(traffic.failed).toEqual([]);
    // The uploader tested every chunk (none stored yet: 204) and sent each one once, accepted at once.
    expect(TOTAL_CHUNKS).toBe(4);
    for (const n of ALL_CHUNKS) {
      expect(traffic.answers.get(`GET ${n}`), `test of chunk ${n}`).toEqual([204]);
      expect(traffic.answers.get(`POST ${n}`), `upload of chunk ${n}`).toEqual([200]);
      expect(traffic.sent.get(`POST ${n}`), `uploads of chunk ${n}`).toBe(1);
    }

    const upload = await settledUpload(identifier);
    expect(upload).toMatchObject({
      identifier,
      fileName: FILE_NAME,
      state: 'complete',
      totalChunks: TOTAL_CHUNKS,
      chunksReceived: TOTAL_CHUNKS,
      size: FILE_SIZE,
      sha256: digest,
      contentType: FILE_TYPE,
      attachedTo: null,
      failure: null,
    });

    const { document, answer, content } = await attachAndDownload(identifier, 'Quarterly report');
    const retrieved = await ctx.api.call('GET', `/api/v1/document/documents/${document.nodeId}`, { token });
    expect(retrieved.body).toMatchObject({
      documentType: 'FILE',
      fileInfo: {
        uploadIdentifier: identifier,
        name: FILE_NAME,
        size: FILE_SIZE,
        contentType: FILE_TYPE,
        sha256: digest,
      },
    });
    expect(answer.headers.get('etag')).toBe(`"${digest}"`);
    expect(content.length).toBe(FILE_SIZE);
    expect(sha256(content)).toBe(digest);

    const attached = await settledUpload(identifier);
    expect(attached).toMatchObject({ state: 'attached', attachedTo: document.nodeId });
  });

  it('resumes an upload: chunks stored already are tested, not sent again', async () => {
    const bytes = pseudoRandomBytes(FILE_SIZE, 0x5eed_0002);
    const digest = sha256(bytes);
    const identifier = `resume-test-${uploader.global}`;

    // An earlier session sent chunks 1 and 2, exactly as resumable.js cuts and describes them.
    for (const n of [1, 2]) {
      const sent = await ctx.api.call('POST', `/upload/?${chunkQuery(identifier, n)}`, {
        token,
        rawBody: chunkOf(bytes, n),
        headers: { 'content-type': FILE_TYPE },
      });
      expect(sent.status, sent.text).toBe(200);
    }
    const halfway = await settledUpload(identifier);
    expect(halfway).toMatchObject({ state: 'receiving', totalChunks: TOTAL_CHUNKS, chunksReceived: 2 });

    const { page, errors, traffic } = await openPage();
    const uploaded = await uploadInPage(page, bytes, identifier);
    await traffic.settled();
    await page.close();

    expect(uploaded).toBe(identifier);
    expect(errors).toEqual([]);
    expect(traffic.failed).toEqual([]);
    for (const n of ALL_CHUNKS) {
      const stored = n <= 2;
      expect(traffic.answers.get(`GET ${n}`), `test of chunk ${n}`).toEqual([stored ? 200 : 204]);
      expect(traffic.sent.get(`POST ${n}`) ?? 0, `uploads of chunk ${n}`).toBe(stored ? 0 : 1);
      if (!stored) expect(traffic.answers.get(`POST ${n}`), `upload of chunk ${n}`).toEqual([200]);
    }

    const upload = await settledUpload(identifier);
    expect(upload).toMatchObject({
      identifier,
      state: 'complete',
      chunksReceived: TOTAL_CHUNKS,
      size: FILE_SIZE,
      sha256: digest,
    });
    const { content } = await attachAndDownload(identifier, 'Resumed report');
    expect(sha256(content)).toBe(digest);
  });
});
