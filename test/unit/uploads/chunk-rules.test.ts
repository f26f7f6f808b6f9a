import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FieldError, PayloadTooLargeError, ValidationError } from '#shared/domain/errors.ts';
import {
  checkChunkBody,
  planChunk,
  type ResumableQuery,
  resumableQuerySchema,
  UPLOAD_LIMITS,
} from '#shared/domain/uploads/chunk-rules.ts';
import { parseInput } from '#shared/http/validation.ts';

const MiB = 1024 * 1024;
const MAX = UPLOAD_LIMITS.maxChunkBytes;

/** The chunks resumable.js 1.1 makes of a file: ResumableFile.bootstrap and ResumableChunk, as in its source. */
function resumableChunks(fileSize: number, chunkSize: number, forceChunkSize: boolean) {
  const round = forceChunkSize ? Math.ceil : Math.floor;
  const maxOffset = Math.max(round(fileSize / chunkSize), 1);
  const chunks: { offset: number; startByte: number; endByte: number }[] = [];
  for (let offset = 0; offset < maxOffset; offset++) {
    const startByte = offset * chunkSize;
    let endByte = Math.min(fileSize, (offset + 1) * chunkSize);
    if (fileSize - endByte < chunkSize && !forceChunkSize) endByte = fileSize;
    chunks.push({ offset, startByte, endByte });
  }
  return chunks;
}

/** The query resumable.js sends with a chunk (its default parameter names; values as strings). */
function resumableQuery(
  fileSize: number,
  chunkSize: number,
  chunk: { offset: number; startByte: number; endByte: number },
  totalChunks: number,
): Record<string, string> {
  return {
    resumableChunkNumber: String(chunk.offset + 1),
    resumableChunkSize: String(chunkSize),
    resumableCurrentChunkSize: String(chunk.endByte - chunk.startByte),
    resumableTotalSize: String(fileSize),
    resumableType: '',
    resumableIdentifier: `${fileSize}-reporttxt`,
    resumableFilename: 'report.txt',
    resumableRelativePath: 'report.txt',
    resumableTotalChunks: String(totalChunks),
  };
}

const parse = (raw: Record<string, string>): ResumableQuery => parseInput(resumableQuerySchema, raw, 'query');

function fieldErrorsOf(action: () => unknown): FieldError[] {
  try {
    action();
  } catch (error) {
    if (error instanceof ValidationError) return error.details.errors ?? [];
    throw error;
  }
  throw new Error('expected a ValidationError');
}

/** The spec's single-chunk form. */
const singleChunk = (extra: Record<string, string> = {}) =>
  parse({
    resumableIdentifier: 'id-1',
    resumableFilename: 'photo.png',
    resumableChunkNumber: '1',
    resumableChunkSize: '1',
    resumableTotalSize: '1',
    ...extra,
  });

const multiChunk = (extra: Record<string, string> = {}) =>
  parse({
    resumableIdentifier: 'id-2',
    resumableFilename: 'big.bin',
    resumableChunkNumber: '2',
    resumableChunkSize: String(MiB),
    resumableTotalSize: String(3 * MiB + 5),
    ...extra,
  });

describe('chunks resumable.js sends', () => {
  const layouts = fc.oneof(
    // Small files and chunks, where the edges (S < C, S = kC, S = 0) are frequent.
    fc.record({ chunkSize: fc.integer({ min: 1, max: 64 }), fileSize: fc.integer({ min: 0, max: 2000 }) }),
    // Realistic chunk sizes up to the 2 MiB the default rule allows, up to 40 chunks.
    fc
      .record({
        chunkSize: fc.integer({ min: 1, max: 2 * MiB }),
        whole: fc.nat(40),
        rest: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
      })
      .map(({ chunkSize, whole, rest }) => ({
        chunkSize,
        fileSize: whole * chunkSize + Math.floor(rest * chunkSize),
      })),
  );

  it('are all accepted with exactly their bytes, under both rules, and add up to the file', () => {
    fc.assert(
      fc.property(
        layouts,
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        ({ chunkSize, fileSize }, force, sendTotal, sendCurrent) => {
          const chunks = resumableChunks(fileSize, chunkSize, force);
          // Without the count the server cuts by the default rule, so forceChunkSize needs the count sent
          // (resumable.js always sends it) unless both rules agree.
          fc.pre(!force || sendTotal || resumableChunks(fileSize, chunkSize, false).length === chunks.length);
          let received = 0;
          for (const chunk of chunks) {
            const raw = resumableQuery(fileSize, chunkSize, chunk, chunks.length);
            if (!sendTotal) delete raw.resumableTotalChunks;
            if (!sendCurrent) delete raw.resumableCurrentChunkSize;
            const query = parse(raw);
            const plan = planChunk(query);
            const bytes = chunk.endByte - chunk.startByte;
            expect(plan.chunkNumber).toBe(chunk.offset + 1);
            expect(plan.totalChunks).toBe(chunks.length);
            // Only the spec's form (chunk size 1, total size 1) leaves the size to the body.
            const specForm = chunkSize === 1 && fileSize === 1;
            expect(plan.expectedBytes).toBe(specForm ? null : bytes);
            expect(plan.fileBytes).toBe(specForm ? null : fileSize);
            checkChunkBody(plan, query, bytes);
            received += plan.expectedBytes ?? bytes;
          }
          expect(received).toBe(fileSize);
        },
      ),
    );
  });

  it('are refused one byte off, naming the body or resumableCurrentChunkSize', () => {
    fc.assert(
      fc.property(layouts, fc.boolean(), fc.nat(), fc.constantFrom(-1, 1), (layout, force, pick, delta) => {
        const { chunkSize, fileSize } = layout;
        const chunks = resumableChunks(fileSize, chunkSize, force);
        const chunk = chunks[pick % chunks.length];
        fc.pre(chunk !== undefined && chunks.length > 1);
        if (!chunk) return;
        const bytes = chunk.endByte - chunk.startByte;
        const raw = resumableQuery(fileSize, chunkSize, chunk, chunks.length);

        const declared = parse({ ...raw, resumableCurrentChunkSize: String(bytes + delta) });
        expect(fieldErrorsOf(() => planChunk(declared))).toEqual([
          expect.objectContaining({ in: 'query', path: '$.resumableCurrentChunkSize', rule: 'chunk_size' }),
        ]);

        const query = parse(raw);
        expect(fieldErrorsOf(() => checkChunkBody(planChunk(query), query, bytes + delta))).toEqual([
          expect.objectContaining({ in: 'body', path: '$', rule: 'chunk_size' }),
        ]);
      }),
    );
  });

  it('are refused with a chunk count matching neither rule, or a chunk number past the last', () => {
    fc.assert(
      fc.property(layouts, fc.integer({ min: 1, max: 3 }), ({ chunkSize, fileSize }, beyond) => {
        const floor = resumableChunks(fileSize, chunkSize, false);
        const ceil = resumableChunks(fileSize, chunkSize, true);
        const last = floor[floor.length - 1];
        if (!last) throw new Error('resumable.js always makes a chunk');
        const raw = resumableQuery(fileSize, chunkSize, last, floor.length);

        const wrongCount = parse({ ...raw, resumableTotalChunks: String(ceil.length + beyond) });
        expect(fieldErrorsOf(() => planChunk(wrongCount))).toContainEqual(
          expect.objectContaining({ path: '$.resumableTotalChunks', rule: 'total_chunks' }),
        );

        delete raw.resumableCurrentChunkSize;
        const pastLast = parse({ ...raw, resumableChunkNumber: String(floor.length + beyond) });
        expect(fieldErrorsOf(() => planChunk(pastLast))).toEqual([
          expect.objectContaining({ path: '$.resumableChunkNumber', rule: 'maximum' }),
        ]);
      }),
    );
  });

  it('follow forceChunkSize when the count says so: full chunks and a short last one', () => {
    const query = parse({
      ...resumableQuery(10, 4, { offset: 2, startByte: 8, endByte: 10 }, 3),
    });
    expect(planChunk(query)).toEqual({ chunkNumber: 3, totalChunks: 3, expectedBytes: 2, fileBytes: 10 });
    const defaultRule = resumableQuery(10, 4, { offset: 1, startByte: 4, endByte: 10 }, 2);
    delete defaultRule.resumableTotalChunks;
    expect(planChunk(parse(defaultRule))).toEqual({
      chunkNumber: 2,
      totalChunks: 2,
      expectedBytes: 6,
      fileBytes: 10,
    });
  });
});

describe('chunk counts', () => {
  const tiny = (fileSize: number, chunkNumber: number) =>
    parse({
      resumableIdentifier: 'many',
      resumableFilename: 'many.bin',
      resumableChunkNumber: String(chunkNumber),
      resumableChunkSize: '1',
      resumableTotalSize: String(fileSize),
    });

  it(`accept ${UPLOAD_LIMITS.maxChunks} chunks and refuse one more, naming resumableChunkSize`, () => {
    expect(planChunk(tiny(UPLOAD_LIMITS.maxChunks, UPLOAD_LIMITS.maxChunks)).totalChunks).toBe(
      UPLOAD_LIMITS.maxChunks,
    );
    expect(fieldErrorsOf(() => planChunk(tiny(UPLOAD_LIMITS.maxChunks + 1, 1)))).toEqual([
      expect.objectContaining({ in: 'query', path: '$.resumableChunkSize', rule: 'too_many_chunks' }),
    ]);
    expect(fieldErrorsOf(() => planChunk(tiny(UPLOAD_LIMITS.maxFileBytes, 1)))).toEqual([
      expect.objectContaining({ path: '$.resumableChunkSize' }),
    ]);
  });
});

describe("the spec's single-chunk form", () => {
  it('takes the whole file as body, whatever its size up to the limit', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX }), (bodyBytes) => {
        const query = singleChunk();
        const plan = planChunk(query);
        expect(plan).toEqual({ chunkNumber: 1, totalChunks: 1, expectedBytes: null, fileBytes: null });
        checkChunkBody(plan, query, bodyBytes);
      }),
    );
  });

  it('holds the body to resumableCurrentChunkSize when that is sent', () => {
    const query = singleChunk({ resumableCurrentChunkSize: '500' });
    const plan = planChunk(query);
    checkChunkBody(plan, query, 500);
    expect(fieldErrorsOf(() => checkChunkBody(plan, query, 499))).toEqual([
      expect.objectContaining({ in: 'query', path: '$.resumableCurrentChunkSize', rule: 'chunk_size' }),
    ]);
  });

  it('is refused as too large above the limit (413)', () => {
    const query = singleChunk();
    expect(() => checkChunkBody(planChunk(query), query, MAX + 1)).toThrow(PayloadTooLargeError);
    expect(() => planChunk(singleChunk({ resumableCurrentChunkSize: String(MAX + 1) }))).toThrow(
      PayloadTooLargeError,
    );
  });
});

describe('a file that fits in one chunk of resumable.js', () => {
  it('is held to the size it declares: a shorter or longer body is refused, the exact one taken', () => {
    const query = multiChunk({
      resumableChunkNumber: '1',
      resumableChunkSize: String(MiB),
      resumableTotalSize: '1500000',
    });
    const plan = planChunk(query);
    expect(plan).toEqual({ chunkNumber: 1, totalChunks: 1, expectedBytes: 1_500_000, fileBytes: 1_500_000 });
    checkChunkBody(plan, query, 1_500_000);
    for (const bodyBytes of [3, 1_499_999, 1_500_001]) {
      expect(fieldErrorsOf(() => checkChunkBody(plan, query, bodyBytes))).toEqual([
        expect.objectContaining({ in: 'body', path: '$', rule: 'chunk_size' }),
      ]);
    }
  });

  it('may be empty when it declares 0 bytes', () => {
    const query = multiChunk({
      resumableChunkNumber: '1',
      resumableChunkSize: String(MiB),
      resumableTotalSize: '0',
    });
    const plan = planChunk(query);
    expect(plan.expectedBytes).toBe(0);
    checkChunkBody(plan, query, 0);
    expect(fieldErrorsOf(() => checkChunkBody(plan, query, 1))).toHaveLength(1);
  });
});

describe('chunks larger than the limit', () => {
  it('are refused (413) when the layout makes them so, and accepted at exactly the limit', () => {
    // Default rule, 3 MiB chunks: the last chunk runs to the end of the file.
    const atLimit = multiChunk({ resumableChunkSize: String(3 * MiB), resumableTotalSize: String(7 * MiB) });
    expect(planChunk(atLimit).expectedBytes).toBe(MAX);
    const over = multiChunk({ resumableChunkSize: String(3 * MiB), resumableTotalSize: String(7 * MiB + 1) });
    expect(() => planChunk(over)).toThrow(PayloadTooLargeError);
    // forceChunkSize with chunks of 5 MiB.
    const forced = multiChunk({
      resumableChunkNumber: '1',
      resumableChunkSize: String(5 * MiB),
      resumableTotalSize: String(11 * MiB),
      resumableTotalChunks: '3',
    });
    expect(() => planChunk(forced)).toThrow(PayloadTooLargeError);
  });

  it('are refused (413) before their size is compared', () => {
    const query = multiChunk();
    expect(() => checkChunkBody(planChunk(query), query, MAX + 1)).toThrow(PayloadTooLargeError);
  });
});

describe('the query', () => {
  const valid = {
    resumableIdentifier: '1234-reportpdf',
    resumableFilename: 'report.pdf',
    resumableChunkNumber: '1',
    resumableChunkSize: String(MiB),
    resumableTotalSize: '1234',
  };

  it('reads numbers, and every optional parameter resumable.js sends', () => {
    expect(
      parse({
        ...valid,
        resumableCurrentChunkSize: '0',
        resumableTotalChunks: '1',
        resumableType: 'application/vnd.foo+xml; charset=utf-8',
        resumableRelativePath: 'folder/report.pdf',
      }),
    ).toMatchObject({ resumableChunkNumber: 1, resumableChunkSize: MiB, resumableCurrentChunkSize: 0 });
    expect(parse({ ...valid, resumableType: '' }).resumableType).toBe('');
    expect(parse({ ...valid, resumableFilename: '../ \u202E naïve "x".pdf' }).resumableFilename).toBe(
      '../ \u202E naïve "x".pdf',
    );
  });

  it.each([
    ['resumableIdentifier', undefined, 'required'],
    ['resumableIdentifier', '', 'too_small'],
    ['resumableIdentifier', 'x'.repeat(UPLOAD_LIMITS.identifierMaxLength + 1), 'too_big'],
    ['resumableIdentifier', 'a\nb', 'control_characters'],
    ['resumableIdentifier', 'a\u0085b', 'control_characters'],
    ['resumableFilename', undefined, 'required'],
    ['resumableFilename', '', 'too_small'],
    ['resumableFilename', 'x'.repeat(UPLOAD_LIMITS.fileNameMaxLength + 1), 'too_big'],
    ['resumableFilename', 'a\u0000.txt', 'nul'],
    ['resumableRelativePath', '', 'too_small'],
    ['resumableRelativePath', 'dir/\u0000', 'nul'],
    ['resumableType', 'text', 'media_type'],
    ['resumableType', 'text/plain; charset', 'media_type'],
    ['resumableType', ' text/plain', 'media_type'],
    ['resumableType', 'text/plain\r\n', 'media_type'],
    ['resumableType', `text/${'x'.repeat(251)}`, 'media_type'],
    ['resumableChunkNumber', undefined, 'required'],
    ['resumableChunkNumber', '0', 'invalid_format'],
    ['resumableChunkNumber', '+1', 'invalid_format'],
    ['resumableChunkNumber', '01', 'invalid_format'],
    ['resumableChunkNumber', '1.0', 'invalid_format'],
    ['resumableChunkNumber', '1e3', 'invalid_format'],
    ['resumableChunkSize', undefined, 'required'],
    ['resumableChunkSize', '0', 'invalid_format'],
    ['resumableChunkSize', '-5', 'invalid_format'],
    ['resumableChunkSize', '9'.repeat(20), 'maximum'],
    ['resumableTotalSize', undefined, 'required'],
    ['resumableTotalSize', '-1', 'invalid_format'],
    ['resumableTotalSize', ' 1', 'invalid_format'],
    ['resumableTotalSize', String(UPLOAD_LIMITS.maxFileBytes + 1), 'maximum'],
    ['resumableCurrentChunkSize', '', 'invalid_format'],
    ['resumableCurrentChunkSize', '0x10', 'invalid_format'],
    ['resumableTotalChunks', '0', 'invalid_format'],
  ])('refuses %s = %j, naming it (%s)', (parameter, value, rule) => {
    const raw: Record<string, string> = { ...valid };
    if (value === undefined) delete raw[parameter];
    else raw[parameter] = value;
    expect(fieldErrorsOf(() => parse(raw))).toEqual([
      { in: 'query', path: `$.${parameter}`, rule, message: expect.any(String) },
    ]);
  });

  it('accepts the limits themselves', () => {
    expect(() =>
      parse({
        ...valid,
        resumableIdentifier: 'x'.repeat(UPLOAD_LIMITS.identifierMaxLength),
        resumableFilename: 'y'.repeat(UPLOAD_LIMITS.fileNameMaxLength),
        resumableTotalSize: String(UPLOAD_LIMITS.maxFileBytes),
        resumableType: `text/${'x'.repeat(250)}`,
      }),
    ).not.toThrow();
  });

  it('refuses a parameter it does not know', () => {
    expect(fieldErrorsOf(() => parse({ ...valid, resumableChunkNumbr: '1' }))).toEqual([
      expect.objectContaining({ in: 'query', path: '$.resumableChunkNumbr', rule: 'unrecognized_key' }),
    ]);
  });
});
