import { describe, expect, it } from 'vitest';
import { PreconditionFailedError } from '#shared/domain/errors.ts';
import {
  evaluatePreconditions,
  ifMatchAllows,
  ifMatchNamesVersion,
  ifNoneMatchHits,
} from '#shared/domain/preconditions.ts';

const NODE = 'W/"V1"';
const FILE = '"abc"';

describe('If-Match', () => {
  it('lets a write through when absent, *, or naming the current version (weak or strong form)', () => {
    expect(ifMatchAllows(undefined, NODE)).toBe(true);
    expect(ifMatchAllows('*', NODE)).toBe(true);
    expect(ifMatchAllows('W/"V1"', NODE)).toBe(true);
    expect(ifMatchAllows('"V0", W/"V1"', NODE)).toBe(true);
    expect(ifMatchAllows('"V1"', NODE)).toBe(true);
  });

  it('stops a write naming another version', () => {
    expect(ifMatchAllows('W/"V0"', NODE)).toBe(false);
    expect(ifMatchAllows('', NODE)).toBe(false);
  });

  it('compares a strong ETag strongly: a weak tag never matches a file', () => {
    expect(ifMatchAllows('"abc"', FILE)).toBe(true);
    expect(ifMatchAllows('*', FILE)).toBe(true);
    expect(ifMatchAllows('W/"abc"', FILE)).toBe(false);
    expect(ifMatchAllows('"abd"', FILE)).toBe(false);
  });

  it('names a version only with a tag: * names none', () => {
    expect(ifMatchNamesVersion(undefined)).toBe(false);
    expect(ifMatchNamesVersion('*')).toBe(false);
    expect(ifMatchNamesVersion(' * ')).toBe(false);
    expect(ifMatchNamesVersion('W/"V1"')).toBe(true);
    expect(ifMatchNamesVersion('"V0", W/"V1"')).toBe(true);
    // `*` beside a tag lets any version through: it names none either.
    expect(ifMatchNamesVersion('*, W/"V0"')).toBe(false);
  });
});

describe('If-None-Match', () => {
  it('hits only for the current version or * (weak comparison)', () => {
    expect(ifNoneMatchHits(undefined, NODE)).toBe(false);
    expect(ifNoneMatchHits('W/"V1"', NODE)).toBe(true);
    expect(ifNoneMatchHits('*', NODE)).toBe(true);
    expect(ifNoneMatchHits('W/"V0"', NODE)).toBe(false);
    expect(ifNoneMatchHits('W/"abc"', FILE)).toBe(true);
  });
});

describe('evaluatePreconditions (RFC 9110 §13.2.2)', () => {
  const failure = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error;
    }
    return undefined;
  };

  it('proceeds without conditions, or when they hold', () => {
    expect(evaluatePreconditions({}, NODE, 'write')).toBe('proceed');
    expect(evaluatePreconditions({ ifMatch: NODE, ifNoneMatch: 'W/"V0"' }, NODE, 'write')).toBe('proceed');
    expect(evaluatePreconditions({ ifNoneMatch: 'W/"V0"' }, NODE, 'read')).toBe('proceed');
  });

  it('answers a read whose If-None-Match hits as not modified', () => {
    expect(evaluatePreconditions({ ifNoneMatch: NODE }, NODE, 'read')).toBe('notModified');
    expect(evaluatePreconditions({ ifNoneMatch: '*' }, NODE, 'read')).toBe('notModified');
  });

  it('fails a write whose If-None-Match hits, naming the header and sending the current ETag', () => {
    for (const ifNoneMatch of ['*', NODE, 'W/"V0", W/"V1"']) {
      const error = failure(() => evaluatePreconditions({ ifNoneMatch }, NODE, 'write'));
      expect(error, ifNoneMatch).toBeInstanceOf(PreconditionFailedError);
      expect((error as PreconditionFailedError).message).toMatch(/^If-None-Match /);
      expect((error as PreconditionFailedError).details.currentEtag).toBe(NODE);
    }
  });

  it('evaluates If-Match first, on reads and writes alike', () => {
    for (const request of ['read', 'write'] as const) {
      const error = failure(() =>
        evaluatePreconditions({ ifMatch: 'W/"V0"', ifNoneMatch: NODE }, NODE, request),
      );
      expect(error, request).toBeInstanceOf(PreconditionFailedError);
      expect((error as PreconditionFailedError).message).toMatch(/^If-Match /);
    }
  });
});
