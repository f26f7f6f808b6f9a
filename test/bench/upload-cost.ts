/**
 * What an upload costs. Throughput: a 32 MiB file sent as 16 chunks of 2 MiB, one after the other over one
 * keep-alive connection, through POST /upload/ and the local adapter until the upload is `complete` (its
 * background assembly included), as a ratio to PutObject of the same 16 chunks to the same embedded S3 by
 * the functions' own S3 client;
 * the two are measured alternately, 3 rounds, medians. The upload path does more than the baseline (a
 * receipt per chunk in DynamoDB, then the assembly reads the chunks back and writes the file again), so
 * the chunk-receiving phase alone (until the last chunk's POST answered) is reported as a ratio too.
 *
 * Memory: a 200 MB file in 100 chunks of 2,000,000 bytes, posted through the API; from just before the
 * last chunk until the background assembly has finished (it runs in this process, as do s3rver and
 * dynalite), process.memoryUsage() is sampled every 10 ms and its peak growth over a baseline taken just
 * before (after a GC when --expose-gc is given) is reported. The assembled file is read back from S3 and
 * its size and SHA-256 checked against the bytes sent.
 *
 * Bytes are pseudo-random (AES-128-CTR of zeros under a fixed key: deterministic, incompressible, cheap),
 * generated a chunk at a time. MB here is 10^6 bytes.
 */
import { createCipheriv, createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  type S3Client,
} from '@aws-sdk/client-s3';
import type { EmbeddedStack } from '#infra/local/embedded-stack.ts';
import { s3 as functionsS3 } from '#shared/clients/s3.ts';
import { FILE_PREFIX } from '#shared/data/storage-layout.ts';
import type { BenchStack } from './bench-stack.ts';

export const UPLOAD_COST_GOALS = { uploadRatio: 0.7, assemblyGrowthMb: 150 } as const;

export interface UploadThroughput {
  fileBytes: number;
  chunkBytes: number;
  chunks: number;
  rounds: number;
  /** Medians over the rounds. */
  medianMs: { upload: number; receiving: number; assembly: number; rawPut: number };
  /** Until `complete` (chunks received, then assembled in the background). */
  uploadMBps: number;
  /** Until the last chunk's POST answered. */
  receivingMBps: number;
  /** PutObject of the same chunks, one after the other. */
  rawPutMBps: number;
  /** upload MB/s / raw PutObject MB/s (goal ≥ 0.7). */
  uploadRatio: number;
  /** receiving MB/s / raw PutObject MB/s: the like-for-like comparison (both store the chunks once). */
  receivingRatio: number;
  /** Every round's file reported complete with the size and SHA-256 of the bytes sent. */
  verified: boolean;
}

export interface MemoryFigures {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export interface AssemblyMemory {
  fileBytes: number;
  chunkBytes: number;
  chunks: number;
  /** Posting the first 99 chunks. */
  sendSeconds: number;
  /** From the last chunk's POST until backgroundIdle() settled. */
  assemblySeconds: number;
  samples: number;
  /** The longest gap between two samples (the event loop is busy with the assembly). */
  maxSampleGapMs: number;
  /** global.gc was available (node --expose-gc) and run before the baseline. */
  gcBeforeBaseline: boolean;
  baselineMb: MemoryFigures;
  /** The peak of each figure over its baseline, in MB. */
  peakGrowthMb: MemoryFigures & {
    /** heapUsed + external + arrayBuffers (arrayBuffers is counted in external too, so twice here). */
    heapExternalArrayBuffers: number;
    /** heapUsed + external: the same without counting arrayBuffers twice. */
    heapUsedPlusExternal: number;
  };
  /** Size and SHA-256 answered by GET /api/v1/uploads/{identifier}, and of the stored object read back. */
  verified: { apiSize: boolean; apiSha256: boolean; storedSize: boolean; storedSha256: boolean };
}

export interface UploadCost {
  throughput: UploadThroughput;
  assemblyMemory: AssemblyMemory;
  seconds: number;
}

const MB = 1_000_000;
const MiB = 1024 * 1024;
const ROUNDS = 3;
const THROUGHPUT = { chunkBytes: 2 * MiB, chunks: 16 };
const ASSEMBLY = { chunkBytes: 2_000_000, chunks: 100 };
const SAMPLE_MS = 10;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const round2 = (value: number) => Math.round(value * 100) / 100;
const mb = (bytes: number) => round2(bytes / MB);

/** Deterministic pseudo-random bytes, a chunk at a time: AES-128-CTR of zeros, keyed by `seed`. */
function byteSource(seed: string) {
  const key = createHash('sha256').update(seed).digest().subarray(0, 16);
  const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
  let zeros = Buffer.alloc(0);
  return (size: number): Buffer => {
    if (zeros.length !== size) zeros = Buffer.alloc(size);
    return cipher.update(zeros);
  };
}

interface UploadView {
  state: string;
  size: number | null;
  sha256: string | null;
  failure: string | null;
}

export async function measureUploadCost(
  bench: BenchStack,
  stack: Pick<EmbeddedStack, 'config' | 'backgroundIdle' | 'run'>,
): Promise<UploadCost> {
  const started = performance.now();
  const { api, token } = bench;
  const { s3Endpoint, bucketName } = stack.config;
  if (!s3Endpoint) throw new Error('the stack has no S3 endpoint');
  // The baseline puts with the very client the functions put chunks with (same settings, same signing).
  const s3: S3Client = stack.run(() => functionsS3());
  const runId = `${Date.now().toString(36)}-${process.pid}`;
  const rawKeys: string[] = [];

  const postChunk = async (
    identifier: string,
    fileName: string,
    chunkSize: number,
    totalSize: number,
    totalChunks: number,
    chunkNumber: number,
    bytes: Buffer,
  ) => {
    const query = new URLSearchParams({
      resumableIdentifier: identifier,
      resumableFilename: fileName,
      resumableChunkNumber: String(chunkNumber),
      resumableChunkSize: String(chunkSize),
      resumableTotalSize: String(totalSize),
      resumableTotalChunks: String(totalChunks),
      resumableCurrentChunkSize: String(bytes.length),
    });
    const answer = await api.call('POST', `/upload/?${query}`, {
      token,
      rawBody: bytes,
      headers: { 'content-type': 'application/octet-stream' },
    });
    if (answer.status !== 200) {
      throw new Error(`chunk ${chunkNumber} of ${identifier}: ${answer.status} ${answer.text}`);
    }
  };
  const uploadView = async (identifier: string): Promise<UploadView> => {
    const answer = await api.call<UploadView>('GET', `/api/v1/uploads/${encodeURIComponent(identifier)}`, {
      token,
    });
    if (answer.status !== 200) throw new Error(`upload ${identifier}: ${answer.status} ${answer.text}`);
    return answer.body;
  };
  /** Once background jobs are idle the upload must be complete (a few looks in case a retry was pending). */
  const completed = async (identifier: string): Promise<UploadView> => {
    for (let look = 0; ; look++) {
      await stack.backgroundIdle();
      const view = await uploadView(identifier);
      if (view.state === 'complete') return view;
      if (view.state === 'failed' || look >= 20) {
        throw new Error(`upload ${identifier} is ${view.state}${view.failure ? `: ${view.failure}` : ''}`);
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  };

  /** Sends `chunks` through POST /upload/ in order; times the receiving phase and the whole. */
  const upload = async (identifier: string, chunks: Buffer[]) => {
    const chunkSize = chunks[0]?.length ?? 0;
    const totalSize = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    const t0 = performance.now();
    for (const [i, chunk] of chunks.entries()) {
      await postChunk(identifier, `${identifier}.bin`, chunkSize, totalSize, chunks.length, i + 1, chunk);
    }
    const receivingMs = performance.now() - t0;
    const view = await completed(identifier);
    return { receivingMs, totalMs: performance.now() - t0, view };
  };
  const rawPut = async (prefix: string, chunks: Buffer[]) => {
    const t0 = performance.now();
    for (const [i, chunk] of chunks.entries()) {
      const Key = `${prefix}/${String(i + 1).padStart(5, '0')}`;
      await s3.send(
        new PutObjectCommand({ Bucket: bucketName, Key, Body: chunk, ContentLength: chunk.length }),
      );
      rawKeys.push(Key);
    }
    return performance.now() - t0;
  };
  const chunksOf = (seed: string, count: number, size: number) => {
    const next = byteSource(seed);
    return Array.from({ length: count }, () => next(size));
  };
  const digest = (chunks: Buffer[]) => {
    const hash = createHash('sha256');
    for (const chunk of chunks) hash.update(chunk);
    return hash.digest('hex');
  };

  try {
    // Throughput first, in its own function: its chunks are garbage before the memory baseline is taken.
    const throughput = await measureThroughput();
    const assemblyMemory = await measureAssemblyMemory();
    return { throughput, assemblyMemory, seconds: round2((performance.now() - started) / 1000) };
  } finally {
    for (let start = 0; start < rawKeys.length; start += 1000) {
      await s3
        .send(
          new DeleteObjectsCommand({
            Bucket: bucketName,
            Delete: { Objects: rawKeys.slice(start, start + 1000).map((Key) => ({ Key })), Quiet: true },
          }),
        )
        .catch(() => undefined);
    }
  }

  async function measureThroughput(): Promise<UploadThroughput> {
    // A warm-up of each path first (module loading, JIT, connections), not counted.
    const warmUp = chunksOf(`${runId}-warm`, 5, THROUGHPUT.chunkBytes);
    await upload(`bench-upload-${runId}-warm`, warmUp);
    await rawPut(`bench/raw/${runId}/warm`, warmUp);

    const runs = { upload: [] as number[], receiving: [] as number[], rawPut: [] as number[] };
    let verified = true;
    for (let round = 0; round < ROUNDS; round++) {
      const chunks = chunksOf(`${runId}-${round}`, THROUGHPUT.chunks, THROUGHPUT.chunkBytes);
      const sha256 = digest(chunks);
      const measureUpload = async () => {
        const { receivingMs, totalMs, view } = await upload(`bench-upload-${runId}-${round}`, chunks);
        runs.upload.push(totalMs);
        runs.receiving.push(receivingMs);
        verified &&= view.size === THROUGHPUT.chunks * THROUGHPUT.chunkBytes && view.sha256 === sha256;
      };
      const measureRaw = async () => {
        runs.rawPut.push(await rawPut(`bench/raw/${runId}/${round}`, chunks));
      };
      // Alternate which goes first, so neither always meets the other's leftovers (GC, disk flush).
      if (round % 2 === 0) {
        await measureUpload();
        await measureRaw();
      } else {
        await measureRaw();
        await measureUpload();
      }
    }
    const fileBytes = THROUGHPUT.chunks * THROUGHPUT.chunkBytes;
    const medianMs = {
      upload: median(runs.upload),
      receiving: median(runs.receiving),
      rawPut: median(runs.rawPut),
    };
    const rate = (ms: number) => round2(fileBytes / MB / (ms / 1000));
    return {
      fileBytes,
      chunkBytes: THROUGHPUT.chunkBytes,
      chunks: THROUGHPUT.chunks,
      rounds: ROUNDS,
      medianMs: {
        upload: Math.round(medianMs.upload),
        receiving: Math.round(medianMs.receiving),
        assembly: Math.round(median(runs.upload.map((total, i) => total - (runs.receiving[i] ?? 0)))),
        rawPut: Math.round(medianMs.rawPut),
      },
      uploadMBps: rate(medianMs.upload),
      receivingMBps: rate(medianMs.receiving),
      rawPutMBps: rate(medianMs.rawPut),
      uploadRatio: round2(medianMs.rawPut / medianMs.upload),
      receivingRatio: round2(medianMs.rawPut / medianMs.receiving),
      verified,
    };
  }

  async function measureAssemblyMemory(): Promise<AssemblyMemory> {
    const { chunkBytes, chunks } = ASSEMBLY;
    const fileBytes = chunkBytes * chunks;
    const identifier = `bench-assembly-${runId}`;
    const filesBefore = await fileSizes();
    const next = byteSource(identifier);
    const hash = createHash('sha256');
    const send = (chunkNumber: number) => {
      const bytes = next(chunkBytes);
      hash.update(bytes);
      return postChunk(identifier, `${identifier}.bin`, chunkBytes, fileBytes, chunks, chunkNumber, bytes);
    };

    const sendStarted = performance.now();
    for (let chunkNumber = 1; chunkNumber < chunks; chunkNumber++) await send(chunkNumber);
    const sendSeconds = round2((performance.now() - sendStarted) / 1000);

    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const baseline = process.memoryUsage();
    const peak = { ...baseline, heapExternalArrayBuffers: 0, heapUsedPlusExternal: 0 };
    const sums = (m: NodeJS.MemoryUsage) => ({
      heapExternalArrayBuffers: m.heapUsed + m.external + m.arrayBuffers,
      heapUsedPlusExternal: m.heapUsed + m.external,
    });
    Object.assign(peak, sums(baseline));
    let samples = 0;
    let maxSampleGapMs = 0;
    let lastSample = performance.now();
    const sample = () => {
      const now = performance.now();
      maxSampleGapMs = Math.max(maxSampleGapMs, now - lastSample);
      lastSample = now;
      samples++;
      const m = process.memoryUsage();
      const s = sums(m);
      peak.rss = Math.max(peak.rss, m.rss);
      peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
      peak.external = Math.max(peak.external, m.external);
      peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
      peak.heapExternalArrayBuffers = Math.max(peak.heapExternalArrayBuffers, s.heapExternalArrayBuffers);
      peak.heapUsedPlusExternal = Math.max(peak.heapUsedPlusExternal, s.heapUsedPlusExternal);
    };
    const sampler = setInterval(sample, SAMPLE_MS);
    const assemblyStarted = performance.now();
    try {
      await send(chunks);
      await stack.backgroundIdle();
      sample();
    } finally {
      clearInterval(sampler);
    }
    const assemblySeconds = round2((performance.now() - assemblyStarted) / 1000);
    const view = await completed(identifier);
    const sha256 = hash.digest('hex');

    // The stored file, read back: the new object under files/ of the file's size.
    const fileKey = [...(await fileSizes())].find(
      ([key, size]) => size === fileBytes && !filesBefore.has(key),
    )?.[0];
    let storedSha256: string | undefined;
    let storedSize = 0;
    if (fileKey) {
      const { Body } = await s3.send(new GetObjectCommand({ Bucket: bucketName, Key: fileKey }));
      const stored = createHash('sha256');
      for await (const piece of Body as Readable) {
        stored.update(piece as Buffer);
        storedSize += (piece as Buffer).length;
      }
      storedSha256 = stored.digest('hex');
    }

    const baseSums = sums(baseline);
    return {
      fileBytes,
      chunkBytes,
      chunks,
      sendSeconds,
      assemblySeconds,
      samples,
      maxSampleGapMs: Math.round(maxSampleGapMs),
      gcBeforeBaseline: gc !== undefined,
      baselineMb: {
        rss: mb(baseline.rss),
        heapUsed: mb(baseline.heapUsed),
        external: mb(baseline.external),
        arrayBuffers: mb(baseline.arrayBuffers),
      },
      peakGrowthMb: {
        rss: mb(peak.rss - baseline.rss),
        heapUsed: mb(peak.heapUsed - baseline.heapUsed),
        external: mb(peak.external - baseline.external),
        arrayBuffers: mb(peak.arrayBuffers - baseline.arrayBuffers),
        heapExternalArrayBuffers: mb(peak.heapExternalArrayBuffers - baseSums.heapExternalArrayBuffers),
        heapUsedPlusExternal: mb(peak.heapUsedPlusExternal - baseSums.heapUsedPlusExternal),
      },
      verified: {
        apiSize: view.size === fileBytes,
        apiSha256: view.sha256 === sha256,
        storedSize: storedSize === fileBytes,
        storedSha256: storedSha256 === sha256,
      },
    };
  }

  /** Every object under files/ and its size. */
  async function fileSizes(): Promise<Map<string, number>> {
    const sizes = new Map<string, number>();
    let ContinuationToken: string | undefined;
    do {
      const page = await s3.send(
        new ListObjectsV2Command({ Bucket: bucketName, Prefix: FILE_PREFIX, ContinuationToken }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key) sizes.set(object.Key, object.Size ?? 0);
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return sizes;
  }
}
